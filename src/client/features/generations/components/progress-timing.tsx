import { useEffect, useState } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';

/** The clock, ticking every second while mounted (elapsed and countdowns). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** '0:42', '12:05', '1:02:03'. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** 'less than a minute', 'about 1 minute', 'about 4 minutes'. */
export function formatRoughDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Under the progress bar of an unfinished video: its place in the queue while it waits, the time
 * it has been running, and the server's estimate from recent jobs, said to be an estimate.
 */
export function ProgressTiming({ video }: { video: GenerationRecord }) {
  const now = useNow();
  const waiting = video.status === 'pending';
  const since = waiting || !video.startedAt ? video.createdAt : video.startedAt;
  const estimateAt = waiting ? video.estimatedStartAt : video.estimatedReadyAt;
  const left = estimateAt ? new Date(estimateAt).getTime() - now : null;
  let estimate: string;
  if (left === null) estimate = 'Usually ready in 2-5 minutes.';
  else if (waiting)
    estimate = left > 0 ? `Estimated start: in ${formatRoughDuration(left)}.` : 'Estimated start: any moment now.';
  else estimate = left > 0 ? `Estimate: ${formatRoughDuration(left)} left.` : 'Estimate: almost done.';
  return (
    <div className="grid gap-1 text-xs text-muted-foreground" aria-live="off">
      {waiting && video.queuePosition ? (
        <p className="font-medium text-foreground">
          {video.queuePosition === 1 ? 'Next in the queue' : `Position ${video.queuePosition} in the queue`}
        </p>
      ) : null}
      <p className="tabular-nums">
        {waiting ? 'Waiting' : 'Elapsed'} {formatElapsed(now - new Date(since).getTime())} · {estimate}
      </p>
      <p>This page updates by itself.</p>
    </div>
  );
}
