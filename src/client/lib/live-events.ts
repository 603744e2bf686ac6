import { useSyncExternalStore } from 'react';

import { LIVE_EVENTS_URL, type LiveEventName } from '../../shared/live-events';

/**
 * The signed-in tab's one EventSource (GET /api/events, decision 011) and whether it works.
 * Queries poll only while it does not ('failed'): hooks read that with useLiveUpdatesActive.
 * - 'connecting': opening, or the browser is reconnecting after a drop (it resumes with Last-Event-ID);
 * - 'open': events arrive;
 * - 'failed': refused (too many tabs, signed out), unsupported, or not back within RECONNECT_GRACE_MS.
 */
export type LiveState = 'off' | 'connecting' | 'open' | 'failed';

export type LiveHandlers = Record<LiveEventName, (data: unknown) => void>;

/** A drop longer than this counts as a failure: the pages poll until the stream is back. */
const RECONNECT_GRACE_MS = 10_000;
/** After a refused or failed stream, a new one is tried this long later. */
const RETRY_FAILED_MS = 60_000;

let state: LiveState = 'off';
const listeners = new Set<() => void>();

function setState(next: LiveState) {
  if (state === next) return;
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the stream is open or briefly reconnecting: queries need not poll. */
export function useLiveUpdatesActive(): boolean {
  return useSyncExternalStore(subscribe, () => state === 'open' || state === 'connecting');
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribe, () => state);
}

/**
 * Opens the stream and hands each event's parsed data to its handler; `onFailed` runs when the
 * stream is given up (the caller refreshes what it was keeping current). Answers the disconnect.
 */
export function connectLiveEvents(handlers: LiveHandlers, onFailed: () => void): () => void {
  if (typeof EventSource === 'undefined') {
    setState('failed');
    return () => setState('off');
  }
  let source: EventSource | null = null;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const fail = () => {
    source?.close();
    source = null;
    clearTimeout(graceTimer);
    if (state !== 'failed') {
      setState('failed');
      onFailed();
    }
    clearTimeout(retryTimer);
    retryTimer = setTimeout(open, RETRY_FAILED_MS);
  };

  function open() {
    if (stopped) return;
    if (state !== 'failed') setState('connecting');
    const next = new EventSource(LIVE_EVENTS_URL, { withCredentials: true });
    source = next;
    next.onopen = () => {
      clearTimeout(graceTimer);
      setState('open');
    };
    next.onerror = () => {
      // CLOSED: the server refused (an HTTP error); CONNECTING: the browser retries by itself.
      if (next.readyState === EventSource.CLOSED) return fail();
      if (state === 'open') setState('connecting');
      clearTimeout(graceTimer);
      graceTimer = setTimeout(() => {
        if (source === next && next.readyState !== EventSource.OPEN) fail();
      }, RECONNECT_GRACE_MS);
    };
    for (const [name, handle] of Object.entries(handlers)) {
      next.addEventListener(name, (event) => {
        try {
          handle(JSON.parse((event as MessageEvent<string>).data) as unknown);
        } catch (error) {
          console.warn(`Live update '${name}' could not be applied.`, error);
        }
      });
    }
  }

  open();
  return () => {
    stopped = true;
    clearTimeout(graceTimer);
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    setState('off');
  };
}
