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

// CSS.escape (CSSOM's serialize an identifier), which user-event uses to walk a radio group by its name.
if (typeof window !== 'undefined' && !(globalThis as { CSS?: { escape?: unknown } }).CSS?.escape) {
  const escape = (value: string): string =>
    Array.from(value, (char, index) => {
      const code = char.codePointAt(0) ?? 0;
      if (code === 0) return '\uFFFD';
      if ((code >= 1 && code <= 0x1f) || code === 0x7f) return `\\${code.toString(16)} `;
      if (index === 0 && code >= 0x30 && code <= 0x39) return `\\${code.toString(16)} `;
      if (index === 1 && code >= 0x30 && code <= 0x39 && value.startsWith('-')) return `\\${code.toString(16)} `;
      if (index === 0 && char === '-' && value.length === 1) return '\\-';
      if (code >= 0x80 || char === '-' || char === '_' || /[0-9A-Za-z]/.test(char)) return char;
      return `\\${char}`;
    }).join('');
  Object.assign(globalThis, { CSS: { ...(globalThis as { CSS?: object }).CSS, escape } });
}
