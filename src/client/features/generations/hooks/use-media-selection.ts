import { isExpiredVideo } from '../../../../shared/video-display';
import { useEffect, useRef, useState } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isRecentVideo } from '../../../../shared/video-display';
import { toast } from '../../../components/ui/use-toast';

/**
 * 'auto' follows the newest completed video until the user picks one, touches the player, or deletes
 * the selected video (spec section 8: the selection then clears and stays clear).
 */
type Selection = { mode: 'auto' } | { mode: 'picked'; id: string } | { mode: 'cleared' };

/** The media page's selected video (spec section 4: the first completed one is selected by itself). */
export function useMediaSelection(videos: GenerationRecord[] | undefined) {
  const [selection, setSelection] = useState<Selection>({ mode: 'auto' });
  const firstCompleted = videos?.find((video) => video.status === 'completed' && !isExpiredVideo(video));
  const selectedId = selection.mode === 'auto' ? (firstCompleted?.id ?? null) : selection.mode === 'picked' ? selection.id : null;
  const selected = videos?.find((video) => video.id === selectedId) ?? null;
  useVideoReadyToast(selection.mode === 'auto' ? firstCompleted : undefined);
  return {
    selected,
    select: (id: string) => setSelection({ mode: 'picked', id }),
    clear: () => setSelection({ mode: 'cleared' }),
    /** Keeps the shown video when a newer one completes, so playback is never swapped under the user. */
    pin: () => {
      if (selection.mode === 'auto' && selected) setSelection({ mode: 'picked', id: selected.id });
    },
  };
}

/** 'Video Ready!' when the auto-selected video is less than 5 minutes old; once per video per visit. */
function useVideoReadyToast(video: GenerationRecord | undefined) {
  const announced = useRef(new Set<string>());
  const id = video?.id;
  const createdAt = video?.createdAt;
  useEffect(() => {
    if (!id || !createdAt || announced.current.has(id) || !isRecentVideo(createdAt)) return;
    announced.current.add(id);
    toast({ title: 'Video Ready!', description: 'Your new video is ready to watch. Download it within 24 hours to keep it.' });
  }, [id, createdAt]);
}
