import { Film, LoaderCircle, Play, TriangleAlert } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { cn } from '../../../lib/utils';
import { isUnfinished } from '../format';
import { GenerationProgress } from './generation-progress';

type PosterVideo = Pick<
  GenerationRecord,
  'prompt' | 'status' | 'posterUrl' | 'duration' | 'progress' | 'progressStage'
>;

interface GalleryPosterProps {
  video: PosterVideo;
  /** The list view's small thumbnail: no stage text, a thinner bar. */
  compact?: boolean;
  className?: string;
}

const PLACEHOLDER = 'bg-linear-to-br from-violet-500/15 via-muted to-fuchsia-500/15 text-muted-foreground';

/**
 * A 16:9 frame: the poster of a finished video, or a placeholder with an icon while it is being made,
 * when it failed, or when it has no poster. Unfinished videos show their progress and stage.
 */
export function GalleryPoster({ video, compact = false, className }: GalleryPosterProps) {
  const unfinished = isUnfinished(video.status);
  return (
    <div className={cn('relative aspect-video w-full overflow-hidden bg-muted', className)}>
      {unfinished ? (
        <UnfinishedPlaceholder video={video} compact={compact} />
      ) : video.status === 'failed' ? (
        <div className={cn('flex size-full flex-col items-center justify-center gap-1.5', PLACEHOLDER)}>
          <TriangleAlert aria-hidden="true" className={cn('text-destructive', compact ? 'size-5' : 'size-7')} />
          {compact ? null : <span className="text-xs font-medium">Generation failed</span>}
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
          <Film aria-hidden="true" className={compact ? 'size-5' : 'size-8'} />
        </div>
      )}
      {video.status === 'completed' ? (
        <>
          <span className="pointer-events-none absolute inset-0 flex items-center justify-center bg-black/0 transition-colors group-hover:bg-black/25">
            <span className="flex size-11 scale-90 items-center justify-center rounded-full bg-white/90 text-violet-700 opacity-0 shadow-lg transition group-hover:scale-100 group-hover:opacity-100">
              <Play aria-hidden="true" className="ml-0.5 size-5 fill-current" />
            </span>
          </span>
          <span className="absolute right-1.5 bottom-1.5 rounded-md bg-black/70 px-1.5 py-0.5 text-[11px] font-semibold text-white tabular-nums">
            {video.duration}s
          </span>
        </>
      ) : null}
    </div>
  );
}

function UnfinishedPlaceholder({ video, compact }: { video: PosterVideo; compact: boolean }) {
  const label = `Progress of ${video.prompt}`;
  return (
    <div
      className={cn(
        'flex size-full flex-col items-center justify-center',
        compact ? 'gap-1.5 px-2' : 'gap-2.5 px-6',
        PLACEHOLDER,
      )}
    >
      <LoaderCircle
        aria-hidden="true"
        className={cn('animate-spin text-violet-600 dark:text-violet-400', compact ? 'size-5' : 'size-7')}
      />
      {compact ? (
        <GenerationProgress variant="bar" progress={video.progress} label={label} className="bg-background/70 h-1.5" />
      ) : (
        <GenerationProgress
          variant="stage-caption"
          progress={video.progress}
          stage={video.progressStage}
          label={label}
          className="bg-background/70 h-2 max-w-56"
          captionClassName="max-w-full truncate text-xs font-medium text-foreground"
        />
      )}
    </div>
  );
}
