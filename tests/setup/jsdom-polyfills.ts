// Browser APIs jsdom lacks and Radix primitives use; the real browser has them (e2e covers that).
class ResizeObserverShim {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in globalThis)) {
  Object.assign(globalThis, { ResizeObserver: ResizeObserverShim });
}

if (typeof Element !== 'undefined') {
  const proto = Element.prototype as unknown as Record<string, unknown>;
  for (const name of ['scrollIntoView', 'hasPointerCapture', 'releasePointerCapture']) {
    if (!(name in proto)) proto[name] = () => false;
  }
}
