import { useEffect } from 'react';

import { PRESENCE_INTERVAL_MS } from '../../../shared/notifications';

function say(visible: boolean): void {
  // keepalive: the 'not visible' message still leaves when the tab is being closed.
  void fetch('/api/notifications/presence', {
    method: 'POST',
    credentials: 'include',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ visible }),
  }).catch(() => undefined);
}

/**
 * Tells the server while this tab is in front of its user (every minute while visible, and at once
 * when it is hidden), so a video finishing now is not also announced by a notification or e-mail.
 */
export function usePresence(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const update = () => {
      clearInterval(timer);
      const visible = document.visibilityState === 'visible';
      say(visible);
      if (visible) timer = setInterval(() => say(true), PRESENCE_INTERVAL_MS);
    };
    const hide = () => say(false);
    update();
    document.addEventListener('visibilitychange', update);
    window.addEventListener('pagehide', hide);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', update);
      window.removeEventListener('pagehide', hide);
    };
  }, []);
}
