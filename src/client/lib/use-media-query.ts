import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's `md` breakpoint (48rem): below it, pages lay out for a phone. */
export const MD_AND_UP = '(min-width: 48rem)';

/**
 * Whether a CSS media query matches now, following changes (a rotated phone, a resized window).
 * Where the browser cannot tell (no matchMedia), `fallback` answers.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback);
  return useSyncExternalStore(subscribe, read, () => fallback);
}
