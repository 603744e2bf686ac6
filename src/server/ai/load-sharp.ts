/** sharp (libvips), loaded on the first image analysed: no request of a server's start needs it. */
export async function loadSharp() {
  return (await import('sharp')).default;
}
