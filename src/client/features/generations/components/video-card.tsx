import { CalendarDays, Clock, Coins, Trash2 } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { formatCreditCount } from '../../../../shared/money/credits';
import { formatVideoDate } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { isUnfinished } from '../format';
import { DeleteVideoDialog } from './delete-video-dialog';
import { ExpiryCountdown } from './expiry-countdown';
import { GenerationProgress } from './generation-progress';
import { DraftBadge, StatusBadge } from './status-badge';
import { VideoPoster } from './video-poster';
import type { LayoutView } from './view-toggle';

interface VideoCardProps {
  video: GenerationRecord;
  view: LayoutView;
  /** Opens the video: the dashboard's player, or the media page's pane. */
  onOpen: (id: string) => void;
  /** The media page's chosen video: outlined, and marked as the current one. */
  selected?: boolean;
  /** The dashboard's gallery mixes every status: each card shows its status badge and a delete button. */
  withStatus?: boolean;
  withDelete?: boolean;
}

/**
 * One video of the dashboard's gallery or the media page's list, in the grid or the list view. The
 * prompt is the button that opens the video; its hit area is stretched over the whole card, and
 * the delete button sits above it so both stay reachable.
 */
export function VideoCard({ video, view, onOpen, selected, withStatus = false, withDelete = false }: VideoCardProps) {
  const list = view === 'list';
  const failure = video.status === 'failed' ? (video.errorMessage ?? (list ? 'Generation failed' : null)) : null;
  return (
    <article
      className={cn(
        'group relative flex h-full w-full min-w-0 overflow-hidden rounded-xl border bg-card shadow-sm transition-[border-color,box-shadow]',
        selected
          ? 'border-violet-500 ring-2 ring-violet-500/30'
          : 'border-border hover:border-violet-500/40 hover:shadow-md',
        list ? 'items-stretch gap-3 p-2 sm:p-2.5' : 'flex-col',
      )}
    >
      <VideoPoster
        video={video}
        size={list ? 'small' : 'large'}
        className={list ? 'w-28 self-start rounded-lg sm:w-36' : undefined}
      />
      <div className={cn('flex min-w-0 flex-1 flex-col gap-1.5', list ? 'py-0.5 pr-1' : 'p-3 sm:p-4')}>
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 text-sm leading-snug font-medium">
            <button
              type="button"
              onClick={() => onOpen(video.id)}
              aria-current={selected ? 'true' : undefined}
              className="line-clamp-2 text-left break-words outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset"
            >
              {video.prompt || 'Untitled video'}
            </button>
          </h3>
          {!list && (withStatus || video.isDraft) ? (
            <span className="flex shrink-0 flex-wrap justify-end gap-1.5">
              <DraftBadge video={video} />
              {withStatus ? <StatusBadge status={video.status} expiresAt={video.expiresAt} /> : null}
            </span>
          ) : null}
        </div>
        <CardFacts video={video} withStatus={withStatus && list} withDraft={list} />
        {isUnfinished(video.status) ? (
          <GenerationProgress
            variant="stage-row"
            progress={video.progress}
            stage={video.progressStage}
            label={`Progress of ${video.prompt || 'Untitled video'}`}
          />
        ) : null}
        {failure ? <p className="line-clamp-2 text-xs text-destructive">{failure}</p> : null}
        <div className={cn('mt-auto flex items-center justify-between gap-2', withDelete && 'min-h-9')}>
          <ExpiryCountdown expiresAt={video.expiresAt} kept={video.kept} className="whitespace-nowrap" />
          {withDelete ? (
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
          ) : null}
        </div>
      </div>
    </article>
  );
}

/** Date, length and credits; the list view puts the status and Draft badges first, as its title has no room. */
function CardFacts({
  video,
  withStatus,
  withDraft,
}: {
  video: GenerationRecord;
  withStatus: boolean;
  withDraft: boolean;
}) {
  return (
    <ul className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      {withStatus ? (
        <li className="inline-flex">
          <StatusBadge status={video.status} expiresAt={video.expiresAt} />
        </li>
      ) : null}
      {withDraft && video.isDraft ? (
        <li className="inline-flex">
          <DraftBadge video={video} />
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
