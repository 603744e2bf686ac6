import { Film, LoaderCircle, Play, TriangleAlert } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isPlayable } from '../../../../shared/video-display';
import { cn } from '../../../lib/utils';
import { isUnfinished } from '../format';

type PosterVideo = Pick<GenerationRecord, 'status' | 'posterUrl' | 'outputVideoUrl' | 'expiresAt' | 'duration'>;

interface VideoPosterProps {
  video: PosterVideo;
  /** 'small': the list views' thumbnail, with smaller icons and no words. */
  size?: 'large' | 'small';
  className?: string;
}

const PLACEHOLDER = 'bg-linear-to-br from-violet-500/15 via-muted to-fuchsia-500/15 text-muted-foreground';

/**
 * A video's 16:9 frame in the gallery and the media list: its poster, or a placeholder while it is
 * made (its progress is shown beside the frame, once), when it failed or has no poster. A playable
 * video shows its length, and a play button when the card is hovered.
 */
export function VideoPoster({ video, size = 'large', className }: VideoPosterProps) {
  const small = size === 'small';
  const icon = small ? 'size-5' : 'size-7';
  return (
    <div className={cn('relative aspect-video w-full shrink-0 overflow-hidden bg-muted', className)}>
      {isUnfinished(video.status) ? (
        <div className={cn('flex size-full items-center justify-center', PLACEHOLDER)}>
          <LoaderCircle aria-hidden="true" className={cn('animate-spin text-violet-600 dark:text-violet-400', icon)} />
        </div>
      ) : video.status === 'failed' ? (
        <div className={cn('flex size-full flex-col items-center justify-center gap-1.5', PLACEHOLDER)}>
          <TriangleAlert aria-hidden="true" className={cn('text-destructive', icon)} />
          {small ? null : <span className="text-xs font-medium">Generation failed</span>}
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
          <Film aria-hidden="true" className={icon} />
        </div>
      )}
      {isPlayable(video) ? (
        <>
          <span className="pointer-events-none absolute inset-0 flex items-center justify-center bg-black/0 transition-colors group-hover:bg-black/25">
            <span
              className={cn(
                'flex scale-90 items-center justify-center rounded-full bg-white/90 text-violet-700 opacity-0 shadow-lg transition group-hover:scale-100 group-hover:opacity-100',
                small ? 'size-8' : 'size-11',
              )}
            >
              <Play aria-hidden="true" className={cn('ml-0.5 fill-current', small ? 'size-4' : 'size-5')} />
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
