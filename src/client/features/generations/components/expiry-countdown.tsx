import { Pin, Timer } from 'lucide-react';
import { useSyncExternalStore } from 'react';

import { expiredWhen, formatExpiry } from '../../../../shared/video-display';
import { cn } from '../../../lib/utils';

/**
 * One clock for every countdown on screen: the player and the card of one video read the same
 * moment, so they never show different times left (each with its own timer, started when it
 * mounted, they could differ by a minute for up to 30 seconds).
 */
const TICK_MS = 15_000;
let now = new Date();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    // The first countdown on screen starts the clock from now; later ones join it.
    now = new Date();
    timer = setInterval(() => {
      now = new Date();
      listeners.forEach((notify) => notify());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const readNow = () => now;

/**
 * 'Deletes in 23h 12m' (from the video's own expiry, VIDEO_RETENTION_HOURS after it completed),
 * refreshed every 15 seconds on one shared clock; 'Expired 3h ago' once it has passed; 'Kept' for a
 * video its owner keeps (it has no expiry).
 */
export function ExpiryCountdown({
  expiresAt,
  kept = false,
  className,
}: {
  expiresAt: string | null;
  kept?: boolean | undefined;
  className?: string;
}) {
  const at = useSyncExternalStore(subscribe, readNow, readNow);
  if (kept) {
    return (
      <span
        className={cn(
          'inline-flex items-center gap-1 text-xs font-medium text-emerald-700 dark:text-emerald-300',
          className,
        )}
        title="Kept: this video is not deleted"
      >
        <Pin aria-hidden="true" className="size-3.5" />
        Kept
      </span>
    );
  }
  const left = formatExpiry(expiresAt, at);
  if (!left) return null;
  const expired = left === 'Expired';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 text-xs font-medium',
        expired ? 'text-destructive' : 'text-amber-700 dark:text-amber-300',
        className,
      )}
      title={expiresAt ? `Deleted at ${new Date(expiresAt).toLocaleString()}` : undefined}
    >
      <Timer aria-hidden="true" className="size-3.5" />
      {expired && expiresAt ? expiredWhen(expiresAt, at) : `Deletes in ${left}`}
    </span>
  );
}
