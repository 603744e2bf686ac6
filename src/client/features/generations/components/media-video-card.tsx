import { Film, LoaderCircle, TriangleAlert } from 'lucide-react';
import type { LayoutView } from './view-toggle';

import { formatCreditCount } from '../../../../shared/money/credits';
import type { GenerationRecord } from '../../../../shared/generations';
import { cn } from '../../../lib/utils';
import { ExpiryCountdown } from './expiry-countdown';
import { GenerationProgress } from './generation-progress';
import { isUnfinished } from '../format';

export type MediaView = LayoutView;

const PLACEHOLDER = 'bg-linear-to-br from-violet-500/15 via-muted to-fuchsia-500/15 text-muted-foreground';

interface MediaVideoCardProps {
  video: GenerationRecord;
  view: MediaView;
  selected: boolean;
  onSelect: (id: string) => void;
}

/**
 * One video of the media list. The prompt is the button that shows the video in the player; its hit
 * area is stretched over the whole card.
 */
export function MediaVideoCard({ video, view, selected, onSelect }: MediaVideoCardProps) {
  const list = view === 'list';
  return (
    <article
      className={cn(
        'group relative flex h-full min-w-0 overflow-hidden rounded-xl border bg-card shadow-sm transition-[border-color,box-shadow]',
        selected
          ? 'border-violet-500 ring-2 ring-violet-500/30'
          : 'border-border hover:border-violet-500/40 hover:shadow-md',
        list ? 'items-start gap-3 p-2' : 'flex-col',
      )}
    >
      <MediaThumbnail video={video} className={list ? 'w-28 shrink-0 rounded-lg sm:w-32' : undefined} />
      <div className={cn('grid min-w-0 flex-1 content-start gap-1.5', list ? 'py-0.5 pr-1' : 'p-3')}>
        <h3 className="text-sm leading-snug font-medium">
          <button
            type="button"
            onClick={() => onSelect(video.id)}
            aria-current={selected ? 'true' : undefined}
            className="line-clamp-2 text-left break-words outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset"
          >
            {video.prompt || 'Untitled video'}
          </button>
        </h3>
        <MediaCardDetails video={video} />
      </div>
    </article>
  );
}

function MediaCardDetails({ video }: { video: GenerationRecord }) {
  if (isUnfinished(video.status)) {
    return (
      <GenerationProgress
        variant="stage-row"
        progress={video.progress}
        stage={video.progressStage}
        label={`Progress of ${video.prompt || 'Untitled video'}`}
      />
    );
  }
  if (video.status === 'failed') {
    return (
      <p className="line-clamp-2 text-xs text-red-700 dark:text-red-400">{video.errorMessage ?? 'Generation failed'}</p>
    );
  }
  return (
    <div className="grid gap-1">
      <p className="text-xs text-muted-foreground">
        {video.duration}s · {formatCreditCount(video.creditsUsed)}
      </p>
      <ExpiryCountdown expiresAt={video.expiresAt} className="whitespace-nowrap" />
    </div>
  );
}

/** A 16:9 frame: the poster of a finished video, or a placeholder while it is made, when it failed or has none. */
export function MediaThumbnail({ video, className }: { video: GenerationRecord; className?: string }) {
  return (
    <div className={cn('relative aspect-video w-full shrink-0 overflow-hidden bg-muted', className)}>
      {isUnfinished(video.status) ? (
        <div className={cn('flex size-full items-center justify-center', PLACEHOLDER)}>
          <LoaderCircle aria-hidden="true" className="size-6 animate-spin text-violet-600 dark:text-violet-400" />
        </div>
      ) : video.status === 'failed' ? (
        <div className={cn('flex size-full items-center justify-center', PLACEHOLDER)}>
          <TriangleAlert aria-hidden="true" className="size-6 text-destructive" />
        </div>
      ) : video.posterUrl ? (
        <img
          src={video.posterUrl}
          alt=""
          loading="lazy"
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
      ) : (
        <div className={cn('flex size-full items-center justify-center', PLACEHOLDER)}>
          <Film aria-hidden="true" className="size-6" />
        </div>
      )}
      {video.status === 'completed' ? (
        <span className="absolute right-1.5 bottom-1.5 rounded-md bg-black/70 px-1.5 py-0.5 text-[11px] font-semibold text-white tabular-nums">
          {video.duration}s
        </span>
      ) : null}
    </div>
  );
}
