import { CalendarDays, Clock, Coins, Trash2 } from 'lucide-react';
import type { LayoutView } from './view-toggle';

import { formatCreditCount } from '../../../../shared/money/credits';
import type { GenerationRecord } from '../../../../shared/generations';
import { formatVideoDate } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { DeleteVideoDialog } from './delete-video-dialog';
import { ExpiryCountdown } from './expiry-countdown';
import { isUnfinished } from '../format';
import { GalleryPoster } from './gallery-poster';
import { GenerationProgress } from './generation-progress';
import { StatusBadge } from './status-badge';

export type GalleryView = LayoutView;

interface GalleryItemProps {
  video: GenerationRecord;
  view: GalleryView;
  onOpen: (id: string) => void;
}

/**
 * One video of the gallery. The prompt is the button that opens the player; its hit area is
 * stretched over the whole card, and the delete button sits above it so both stay reachable.
 */
export function GalleryItem({ video, view, onOpen }: GalleryItemProps) {
  const list = view === 'list';
  return (
    <article
      className={cn(
        'group relative flex w-full overflow-hidden rounded-xl border border-border bg-card shadow-sm transition-[border-color,box-shadow] hover:border-violet-500/40 hover:shadow-md',
        list ? 'items-stretch gap-3 p-2.5 sm:gap-4 sm:p-3' : 'flex-col',
      )}
    >
      <GalleryPoster
        video={video}
        compact={list}
        className={list ? 'w-28 shrink-0 self-start rounded-lg sm:w-44' : undefined}
      />
      <div className={cn('flex min-w-0 flex-1 flex-col gap-2', list ? 'py-0.5' : 'p-4')}>
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 text-sm leading-snug font-medium">
            <button
              type="button"
              onClick={() => onOpen(video.id)}
              className={cn(
                'text-left break-words outline-none after:absolute after:inset-0 after:rounded-xl after:content-[""] focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset',
                list ? 'line-clamp-2' : 'line-clamp-2 min-h-[2lh]',
              )}
            >
              {video.prompt || 'Untitled video'}
            </button>
          </h3>
          {list ? null : <StatusBadge status={video.status} expiresAt={video.expiresAt} className="shrink-0" />}
        </div>
        <VideoFacts video={video} withStatus={list} />
        {video.status === 'failed' && video.errorMessage ? (
          <p className="line-clamp-2 text-xs text-destructive">{video.errorMessage}</p>
        ) : null}
        {list && isUnfinished(video.status) ? (
          <GenerationProgress variant="stage-line" progress={video.progress} stage={video.progressStage} />
        ) : null}
        <div className="mt-auto flex min-h-9 items-center justify-between gap-2">
          <ExpiryCountdown expiresAt={video.expiresAt} className="whitespace-nowrap" />
          <DeleteVideoDialog
            videoId={video.id}
            failureText="server"
            trigger={
              <Button
                variant="ghost"
                size="icon"
                aria-label="Delete video"
                title="Delete video"
                className="relative z-10 ml-auto size-9 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
              >
                <Trash2 aria-hidden="true" />
              </Button>
            }
          />
        </div>
      </div>
    </article>
  );
}

/** Date, duration and credits; the list view puts the status badge first, as its title has no room. */
function VideoFacts({ video, withStatus }: { video: GenerationRecord; withStatus: boolean }) {
  return (
    <ul className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      {withStatus ? (
        <li className="inline-flex">
          <StatusBadge status={video.status} expiresAt={video.expiresAt} />
        </li>
      ) : null}
      <li className="inline-flex items-center gap-1">
        <CalendarDays aria-hidden="true" className="size-3.5" />
        <time dateTime={video.createdAt}>{formatVideoDate(video.createdAt)}</time>
      </li>
      <li className="inline-flex items-center gap-1">
        <Clock aria-hidden="true" className="size-3.5" />
        {video.duration}s
      </li>
      <li className="inline-flex items-center gap-1">
        <Coins aria-hidden="true" className="size-3.5" />
        {formatCreditCount(video.creditsUsed)}
      </li>
    </ul>
  );
}
