import { useSyncExternalStore } from 'react';

/** Set when a new release's service worker is waiting: calling it activates that release and reloads. */
let applyUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

export function offerUpdate(apply: (() => void) | null): void {
  applyUpdate = apply;
  for (const listener of listeners) listener();
}

export function useWaitingUpdate(): (() => void) | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => applyUpdate,
    // The prerendered landing page (and its hydration) has no release waiting.
    () => null,
  );
}
