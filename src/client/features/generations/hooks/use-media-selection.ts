import { isExpiredVideo } from '../../../../shared/video-display';
import { useEffect, useRef, useState } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isRecentVideo } from '../../../../shared/video-display';
import { toast } from '../../../components/ui/use-toast';
import { retentionWords } from '../../../lib/retention';
import { isUnfinished } from '../format';

/**
 * 'auto' follows the newest completed video until the user picks one, touches the player, or deletes
 * the selected video (docs/product-rules.md, Screens: the selection then clears and stays clear). 'picked' keeps one
 * video, whatever its state: the one just generated is picked this way (decision 011), so the
 * player shows its progress and then plays it, without jumping to another video.
 */
type Selection = { mode: 'auto' } | { mode: 'picked'; id: string } | { mode: 'cleared' };

/**
 * The media page's selected video (docs/product-rules.md, Screens: the first completed one is selected by itself;
 * `followId`, the video just generated, is selected instead, and so is each video the address names later).
 */
export function useMediaSelection(videos: GenerationRecord[] | undefined, followId: string | null = null) {
  const [selection, setSelection] = useState<Selection>(followId ? { mode: 'picked', id: followId } : { mode: 'auto' });
  // The page stays open while the address names another video (Extend, from this page): that one is picked.
  const [followed, setFollowed] = useState(followId);
  if (followId !== followed) {
    setFollowed(followId);
    if (followId) setSelection({ mode: 'picked', id: followId });
  }
  const firstCompleted = videos?.find((video) => video.status === 'completed' && !isExpiredVideo(video));
  const selectedId =
    selection.mode === 'auto' ? (firstCompleted?.id ?? null) : selection.mode === 'picked' ? selection.id : null;
  const selected = videos?.find((video) => video.id === selectedId) ?? null;
  useVideoReadyToast(selection.mode === 'auto' ? firstCompleted : undefined, selected);
  return {
    selected,
    /** The id the user (or the address) picked, whether or not it is in the list; null otherwise. */
    pickedId: selection.mode === 'picked' ? selection.id : null,
    select: (id: string) => setSelection({ mode: 'picked', id }),
    clear: () => setSelection({ mode: 'cleared' }),
    /** Keeps the shown video when a newer one completes, so playback is never swapped under the user. */
    pin: () => {
      if (selection.mode === 'auto' && selected) setSelection({ mode: 'picked', id: selected.id });
    },
  };
}

/**
 * 'Video Ready!' once per video per visit: for the auto-selected video when it is less than 5
 * minutes old, and for the selected video when it finishes while it is shown.
 */
function useVideoReadyToast(autoSelected: GenerationRecord | undefined, selected: GenerationRecord | null) {
  const announced = useRef(new Set<string>());
  const seenUnfinished = useRef(new Set<string>());
  const autoId = autoSelected?.id;
  const autoCreatedAt = autoSelected?.createdAt;
  const selectedId = selected?.id;
  const selectedStatus = selected?.status;
  const selectedCreatedAt = selected?.createdAt;
  useEffect(() => {
    const announce = (id: string | undefined, createdAt: string | undefined) => {
      if (!id || !createdAt || announced.current.has(id) || !isRecentVideo(createdAt)) return;
      announced.current.add(id);
      toast({
        title: 'Video Ready!',
        description: `Your new video is ready to watch. Download it within ${retentionWords()} to keep it.`,
      });
    };
    if (selectedId && selectedStatus && isUnfinished(selectedStatus)) seenUnfinished.current.add(selectedId);
    if (selectedId && selectedStatus === 'completed' && seenUnfinished.current.has(selectedId))
      announce(selectedId, selectedCreatedAt);
    else announce(autoId, autoCreatedAt);
  }, [autoId, autoCreatedAt, selectedId, selectedStatus, selectedCreatedAt]);
}
