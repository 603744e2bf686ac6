import { CalendarDays, CircleAlert, Clock, Coins, ExternalLink, Volume2 } from 'lucide-react';

import { formatCreditCount } from '../../../../shared/money/credits';
import type { GenerationJob } from '../../../../shared/generations';
import { isExpiredVideo, shownCredits, shownDuration } from '../../../../shared/video-display';
import { buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatCreatedTime, isUnfinished } from '../format';
import { GenerationProgress } from './generation-progress';
import { ExpiryCountdown } from './expiry-countdown';
import { RemoveExpiredButton } from './remove-expired-button';
import { StatusBadge } from './status-badge';

/** Spec section 2: every generation job, newest first, as the server orders them. */
export function HistoryJobList({ jobs }: { jobs: GenerationJob[] }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">{summarize(jobs)}</p>
      <ul aria-label="Generation jobs" className="grid gap-3">
        {jobs.map((job) => (
          <HistoryJobItem key={job.id} job={job} />
        ))}
      </ul>
    </div>
  );
}

/** '5 videos · 3 completed · 1 processing · 1 failed' */
function summarize(jobs: GenerationJob[]): string {
  const count = (match: (job: GenerationJob) => boolean) => jobs.filter(match).length;
  const parts = [
    `${jobs.length} ${jobs.length === 1 ? 'video' : 'videos'}`,
    `${count((job) => job.status === 'completed' && !isExpiredVideo(job))} completed`,
  ];
  const expired = count((job) => isExpiredVideo(job));
  if (expired > 0) parts.push(`${expired} expired`);
  const unfinished = count((job) => isUnfinished(job.status));
  const failed = count((job) => job.status === 'failed');
  if (unfinished > 0) parts.push(`${unfinished} processing`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(' · ');
}

function HistoryJobItem({ job }: { job: GenerationJob }) {
  const expired = isExpiredVideo(job);
  const viewable = job.status === 'completed' && job.outputVideoUrl && !expired;
  return (
    <li
      className={cn(
        'grid gap-3 rounded-xl border border-border bg-card p-4 shadow-sm sm:items-center sm:gap-6 sm:p-5',
        (viewable || expired) && 'sm:grid-cols-[minmax(0,1fr)_auto]',
      )}
    >
      <div className="grid min-w-0 gap-2.5">
        <p className="line-clamp-3 leading-snug font-medium break-words">{job.textPrompt || 'Untitled video'}</p>
        <ul
          aria-label="Details"
          className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-muted-foreground"
        >
          <li className="inline-flex">
            <StatusBadge status={job.status} expiresAt={job.expiresAt} />
          </li>
          {expired && job.expiresAt ? (
            <li className="inline-flex">
              <ExpiryCountdown expiresAt={job.expiresAt} />
            </li>
          ) : null}
          <li className="inline-flex items-center gap-1">
            <CalendarDays aria-hidden="true" className="size-3.5" />
            <time dateTime={job.createdAt}>{formatCreatedTime(job.createdAt)}</time>
          </li>
          <li className="inline-flex items-center gap-1">
            <Clock aria-hidden="true" className="size-3.5" />
            {shownDuration(job.duration)}s
          </li>
          <li className="inline-flex items-center gap-1">
            <Coins aria-hidden="true" className="size-3.5" />
            {formatCreditCount(shownCredits(job.creditsUsed))}
          </li>
          {job.hasAudio ? (
            <li className="inline-flex items-center gap-1">
              <Volume2 aria-hidden="true" className="size-3.5" />
              Audio
            </li>
          ) : null}
        </ul>
        {job.status === 'failed' && job.errorMessage ? (
          <p className="flex items-start gap-2 rounded-lg bg-red-500/10 px-3 py-2 text-sm text-red-700 dark:text-red-300">
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span className="min-w-0 break-words">{job.errorMessage}</span>
          </p>
        ) : null}
        {isUnfinished(job.status) ? (
          <GenerationProgress
            variant="bar-percent"
            progress={job.progress}
            label={`Progress of ${job.textPrompt || 'Untitled video'}`}
            className="max-w-sm"
          />
        ) : null}
      </div>
      {expired ? <RemoveExpiredButton id={job.id} className="justify-self-start sm:justify-self-end" /> : null}
      {viewable ? (
        <a
          href={job.outputVideoUrl ?? undefined}
          target="_blank"
          rel="noreferrer"
          className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'justify-self-start sm:justify-self-end')}
        >
          <ExternalLink aria-hidden="true" /> View Video
        </a>
      ) : null}
    </li>
  );
}
