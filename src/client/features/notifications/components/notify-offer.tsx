import { Bell, X } from 'lucide-react';
import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import { useBrowserPush } from './use-browser-push';

const DISMISSED_KEY = 'reelsmith:notify-offer-dismissed';

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Offered under a video that has just started, once: notifications in this browser, so the user may
 * leave while it renders. Not shown where the browser cannot, where it is already on or blocked, or
 * once answered.
 */
export function NotifyOffer() {
  const push = useBrowserPush();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (dismissed || push.state !== 'off' || !push.settings.data) return null;

  function dismiss() {
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode: it is offered again next time, no harm.
    }
    setDismissed(true);
  }

  return (
    <aside
      aria-label="Notifications"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-violet-300/60 bg-violet-50 p-3 text-sm dark:border-violet-500/30 dark:bg-violet-950/40"
    >
      <Bell aria-hidden="true" className="size-5 shrink-0 text-primary" />
      <span className="min-w-0 flex-1 basis-56">Get a notification when it is ready, so you can leave this page.</span>
      <span className="flex items-center gap-2">
        <Button
          variant="brand"
          size="sm"
          disabled={push.busy}
          onClick={() => void push.turnOn().then((on) => on && dismiss())}
        >
          Notify me
        </Button>
        <Button variant="ghost" size="sm" onClick={dismiss} aria-label="Not now">
          <X aria-hidden="true" /> Not now
        </Button>
      </span>
    </aside>
  );
}
