// Makes the app icons in src/client/public/icons from one SVG source (the brand mark: a play
// triangle on the violet-to-fuchsia square). Run after changing the mark: `node scripts/make-icons.mjs`.
// The PNGs are committed, so a build needs neither this script nor sharp's native binary.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.resolve(import.meta.dirname, '../src/client/public/icons');

/** `inset` shrinks the mark into the maskable safe zone (the inner 80 %) and fills the whole square. */
function markSvg({ rounded, inset }) {
  const radius = rounded ? 112 : 0;
  const scale = inset ? 0.62 : 1;
  const offset = (512 - 512 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#c026d3"/>
  </linearGradient></defs>
  <rect width="512" height="512" rx="${radius}" fill="url(#g)"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <path d="M192 152v208l176-104z" fill="#fff"/>
  </g>
</svg>`;
}

mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, 'icon.svg'), markSvg({ rounded: true, inset: false }));
const outputs = [
  ['icon-192.png', 192, { rounded: true, inset: false }],
  ['icon-512.png', 512, { rounded: true, inset: false }],
  ['maskable-512.png', 512, { rounded: false, inset: true }],
  ['apple-touch-icon.png', 180, { rounded: false, inset: false }],
];
for (const [name, size, options] of outputs) {
  await sharp(Buffer.from(markSvg(options)))
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(OUT, name));
  console.log(`${name}: ${size}x${size}`);
}
