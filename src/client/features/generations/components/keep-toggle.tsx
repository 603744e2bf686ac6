import { Pin } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isPlayable } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { mayKeepVideos, retentionWords } from '../../../lib/retention';
import { useKeepVideo } from '../api/keep-video';

/**
 * Keep: a pressed switch for a finished video, offered to users KEEP_VIDEOS_FOR allows (a kept video
 * has no countdown and is never deleted). Anyone sees it on a video they kept, to stop keeping it.
 */
export function KeepToggle({ video }: { video: GenerationRecord }) {
  const { user } = useAuth();
  const keepVideo = useKeepVideo();
  const kept = video.kept === true;
  if (!isPlayable(video) || (!kept && !mayKeepVideos(user))) return null;
  const handleClick = () =>
    keepVideo.mutate(
      { id: video.id, keep: !kept },
      {
        onSuccess: (record) =>
          toast(
            record.kept
              ? { title: 'Video kept', description: 'It will not be deleted until you stop keeping it.' }
              : { title: 'No longer kept', description: `It will be deleted in ${retentionWords()}.` },
          ),
        onError: (error) =>
          toast({
            title: 'Keep failed',
            description: getServerMessage(error) ?? 'Unable to change this video. Please try again.',
            variant: 'destructive',
          }),
      },
    );
  return (
    <Button
      variant="outline"
      size="sm"
      aria-pressed={kept}
      disabled={keepVideo.isPending}
      title={
        kept ? 'Stop keeping this video: it is then deleted like the others' : 'Keep this video: it is never deleted'
      }
      onClick={handleClick}
    >
      <Pin aria-hidden="true" className={kept ? 'fill-current' : undefined} /> {kept ? 'Kept' : 'Keep'}
    </Button>
  );
}
