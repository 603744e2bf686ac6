import { CalendarDays, CircleAlert, Clock, Coins, ExternalLink, Volume2 } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { formatCreditCount } from '../../../../shared/money/credits';
import { isExpiredVideo, isPlayable, shownCredits, shownDuration } from '../../../../shared/video-display';
import { buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { formatCreatedTime, isUnfinished } from '../format';
import { ExpiryCountdown } from './expiry-countdown';
import { GenerationProgress } from './generation-progress';
import { RemoveExpiredButton } from './remove-expired-button';
import { DraftBadge, StatusBadge } from './status-badge';

/** What a row says about a generation: its title, whether it has expired and whether its video can be opened. */
function rowState(record: GenerationRecord) {
  const expired = isExpiredVideo(record);
  return {
    title: record.prompt || 'Untitled video',
    expired,
    // A link exists only while the file does; an expired one (or a status this client does not know) offers none.
    videoUrl: isPlayable(record) ? record.outputVideoUrl : null,
  };
}

/**
 * One generation as a list row, the one way the history page and the generator's Recent History
 * show it: the prompt, its status (or when it expired), its progress while it is made, why it
 * failed, and 'View Video' once its video is ready. The full row (history) adds the date,
 * duration, credits and audio, and removes an expired video from the list; the compact one
 * (Recent History) is the summary alone.
 */
export function GenerationRow({ record, compact = false }: { record: GenerationRecord; compact?: boolean }) {
  const { title, expired, videoUrl } = rowState(record);
  const hasAction = Boolean(videoUrl) || (expired && !compact);
  return (
    <li
      className={cn(
        'grid border border-border',
        compact ? 'gap-2 rounded-lg p-3' : 'gap-3 rounded-xl bg-card p-4 shadow-sm sm:items-center sm:gap-6 sm:p-5',
        !compact && hasAction && 'sm:grid-cols-[minmax(0,1fr)_auto]',
      )}
    >
      <div className={cn('grid min-w-0', compact ? 'gap-2' : 'gap-2.5')}>
        <p className={cn('leading-snug font-medium break-words', compact ? 'line-clamp-2 text-sm' : 'line-clamp-3')}>
          {title}
        </p>
        <ul
          aria-label="Details"
          className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-muted-foreground"
        >
          <li className="inline-flex">
            <StatusBadge status={record.status} expiresAt={record.expiresAt} />
          </li>
          {record.isDraft ? (
            <li className="inline-flex">
              <DraftBadge video={record} />
            </li>
          ) : null}
          {expired && record.expiresAt ? (
            <li className="inline-flex">
              <ExpiryCountdown expiresAt={record.expiresAt} kept={record.kept} />
            </li>
          ) : null}
          {compact ? null : <RecordFacts record={record} />}
        </ul>
        {record.status === 'failed' && record.errorMessage ? (
          <p
            className={cn(
              'flex items-start gap-2 text-red-700 dark:text-red-300',
              compact ? 'text-xs' : 'rounded-lg bg-red-500/10 px-3 py-2 text-sm',
            )}
          >
            <CircleAlert aria-hidden="true" className={cn('shrink-0', compact ? 'size-3.5' : 'mt-0.5 size-4')} />
            <span className="min-w-0 break-words">{record.errorMessage}</span>
          </p>
        ) : null}
        {isUnfinished(record.status) ? (
          <GenerationProgress
            variant={compact ? 'bar' : 'bar-percent'}
            progress={record.progress}
            label={`Progress of ${title}`}
            className={compact ? undefined : 'max-w-sm'}
          />
        ) : null}
      </div>
      {expired && !compact ? (
        <RemoveExpiredButton id={record.id} className="justify-self-start sm:justify-self-end" />
      ) : null}
      {videoUrl ? (
        <a
          href={videoUrl}
          target="_blank"
          rel="noreferrer"
          className={cn(
            buttonVariants({ variant: 'outline', size: 'sm' }),
            'justify-self-start',
            !compact && 'sm:justify-self-end',
          )}
        >
          <ExternalLink aria-hidden="true" /> View Video
        </a>
      ) : null}
    </li>
  );
}

/** The date, duration, credits and audio of the full row. */
function RecordFacts({ record }: { record: GenerationRecord }) {
  return (
    <>
      <li className="inline-flex items-center gap-1">
        <CalendarDays aria-hidden="true" className="size-3.5" />
        <time dateTime={record.createdAt}>{formatCreatedTime(record.createdAt)}</time>
      </li>
      <li className="inline-flex items-center gap-1">
        <Clock aria-hidden="true" className="size-3.5" />
        {shownDuration(record.duration)}s
      </li>
      <li className="inline-flex items-center gap-1">
        <Coins aria-hidden="true" className="size-3.5" />
        {formatCreditCount(shownCredits(record.creditsUsed))}
      </li>
      {record.hasAudio ? (
        <li className="inline-flex items-center gap-1">
          <Volume2 aria-hidden="true" className="size-3.5" />
          Audio
        </li>
      ) : null}
    </>
  );
}
