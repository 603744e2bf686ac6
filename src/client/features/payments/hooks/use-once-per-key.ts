import { useEffect, useEffectEvent, useRef } from 'react';

const NOT_YET = Symbol('not yet');

/**
 * Runs `run` once for each new `key` after render: a payment call with side effects at Stripe must
 * not be sent twice because StrictMode mounts effects twice (the ref survives that remount).
 * A `null` key runs nothing.
 */
export function useOncePerKey<K extends string | number>(key: K | null, run: (key: K) => void): void {
  const done = useRef<K | typeof NOT_YET>(NOT_YET);
  const onKey = useEffectEvent(run);
  useEffect(() => {
    if (key === null || done.current === key) return;
    done.current = key;
    onKey(key);
  }, [key]);
}
