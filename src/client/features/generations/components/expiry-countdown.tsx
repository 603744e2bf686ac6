import { Timer } from 'lucide-react';
import { useEffect, useState } from 'react';

import { expiredWhen, formatExpiry } from '../../../../shared/video-display';
import { cn } from '../../../lib/utils';

/** 'Deletes in 23h 12m', refreshed every minute; 'Expired 3h ago' once the 24 hours are over. */
export function ExpiryCountdown({ expiresAt, className }: { expiresAt: string | null; className?: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const left = formatExpiry(expiresAt, now);
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
      {expired && expiresAt ? expiredWhen(expiresAt, now) : `Deletes in ${left}`}
    </span>
  );
}
