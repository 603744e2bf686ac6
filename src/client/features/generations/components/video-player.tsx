import { Film } from 'lucide-react';

import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/utils';

interface VideoPlayerProps {
  src: string | null;
  poster?: string | null;
  className?: string;
  autoPlay?: boolean;
}

/** The video with native controls; 'Playback Error' when the browser cannot play it. */
export function VideoPlayer({ src, poster, className, autoPlay = false }: VideoPlayerProps) {
  if (!src) {
    return (
      <div
        className={cn(
          'flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg bg-muted text-muted-foreground',
          className,
        )}
      >
        <Film aria-hidden="true" className="size-8" />
        <p className="text-sm">Video not available</p>
      </div>
    );
  }
  return (
    <video
      key={src}
      src={src}
      poster={poster ?? undefined}
      controls
      playsInline
      autoPlay={autoPlay}
      preload="metadata"
      aria-label="Video player"
      className={cn('aspect-video w-full rounded-lg bg-black object-contain', className)}
      onError={() =>
        toast({
          title: 'Playback Error',
          description: 'Unable to play video. Try downloading for local playback.',
          variant: 'destructive',
        })
      }
    />
  );
}
