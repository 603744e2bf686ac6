import { Eye, EyeOff, VideoOff } from 'lucide-react';
import { useState } from 'react';

import type { SafetyItem } from '../../../../shared/safety';
import { Button } from '../../../components/ui/button';

type ReportedVideo = NonNullable<SafetyItem['video']>;

/**
 * A reported video, blurred until the administrator asks to see it: what is reported may be an
 * intimate image or a minor, and no one should see it by scrolling past. "Show video" unblurs it and
 * gives the player; "Blur again" hides it. Without a file, `missing` says why.
 */
export function SafetyVideoPreview({ video, missing }: { video: ReportedVideo | null; missing: string }) {
  const [shown, setShown] = useState(false);
  if (!video || (!video.videoUrl && !video.posterUrl)) {
    return (
      <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">
        <VideoOff aria-hidden="true" className="size-6" />
        {missing}
      </div>
    );
  }
  if (shown) {
    return (
      <div className="space-y-2">
        {video.videoUrl ? (
          <video
            className="aspect-video w-full rounded-lg bg-black object-contain"
            src={video.videoUrl}
            poster={video.posterUrl ?? undefined}
            controls
            preload="metadata"
            aria-label="The reported video"
          />
        ) : (
          <img
            className="aspect-video w-full rounded-lg bg-black object-contain"
            src={video.posterUrl ?? undefined}
            alt="The reported video's first frame (its file is gone)"
          />
        )}
        <Button variant="outline" size="sm" onClick={() => setShown(false)}>
          <EyeOff aria-hidden="true" /> Blur again
        </Button>
      </div>
    );
  }
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-lg bg-black">
      {video.posterUrl ? (
        <img
          src={video.posterUrl}
          alt="The reported video, blurred"
          className="size-full scale-125 object-cover opacity-70 blur-2xl"
        />
      ) : null}
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-3 text-center">
        <p className="text-xs font-medium text-white/90">Blurred: it may be disturbing.</p>
        <Button variant="secondary" size="sm" onClick={() => setShown(true)}>
          <Eye aria-hidden="true" /> {video.videoUrl ? 'Show video' : 'Show frame'}
        </Button>
      </div>
    </div>
  );
}
