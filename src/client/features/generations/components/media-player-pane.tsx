import { CircleSlash, Clapperboard } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { Card } from '../../../components/ui/card';
import { retentionWords } from '../../../lib/retention';
import type { FinishSlot } from '../remix/remix-actions';
import { SCREEN, VideoDetails, VideoScreen } from './video-details';

/** Why the video the address named (`?video=`) is not shown: past its expiry, or not among this user's videos. */
export type MissingVideo = 'expired' | 'not-found';

/** The texts, with the operator's retention (VIDEO_RETENTION_HOURS). */
const missingText = (missing: MissingVideo): { title: string; text: string } =>
  missing === 'expired'
    ? {
        title: 'This video has expired',
        text: `Videos are deleted ${retentionWords()} after they are made. Your other videos are listed here.`,
      }
    : {
        title: 'This video is not here',
        text: `It has expired (videos are kept ${retentionWords()}), was deleted, or belongs to another account. Your videos are listed here.`,
      };

interface MediaPlayerPaneProps {
  video: GenerationRecord | null;
  /** Set when the address named a video that cannot be shown: said in the player's place. */
  missing?: MissingVideo | null;
  /** The selected video was deleted: the selection clears (docs/product-rules.md, Screens). */
  onDeleted: () => void;
  /** The user touched the pane: keep this video even if a newer one completes. */
  onInteract: () => void;
  /** The Finish button beside Extend (the finishing feature's, which the page composes). */
  finishSlot?: FinishSlot;
}

/** The media page's player with the selected video's details and its Download, Share and Delete buttons. */
export function MediaPlayerPane({ video, missing, onDeleted, onInteract, finishSlot }: MediaPlayerPaneProps) {
  return (
    <Card
      role="region"
      aria-label="Player"
      className="overflow-hidden"
      onPointerDownCapture={onInteract}
      onFocusCapture={onInteract}
    >
      {video ? (
        <>
          <VideoScreen video={video} />
          <VideoDetails
            video={video}
            place="media"
            onDeleted={onDeleted}
            finishSlot={finishSlot}
            className="p-4 sm:p-6"
          />
        </>
      ) : missing ? (
        <div className={SCREEN} role="status">
          <CircleSlash aria-hidden="true" className="size-10 text-muted-foreground" />
          <div className="grid gap-1">
            <h2 className="font-semibold">{missingText(missing).title}</h2>
            <p className="text-sm text-muted-foreground">{missingText(missing).text}</p>
          </div>
        </div>
      ) : (
        <div className={SCREEN}>
          <Clapperboard aria-hidden="true" className="size-10 text-violet-600 dark:text-violet-400" />
          <div className="grid gap-1">
            <p className="font-semibold">No video selected</p>
            <p className="text-sm text-muted-foreground">Choose a completed video from your list to watch it here.</p>
          </div>
        </div>
      )}
    </Card>
  );
}
