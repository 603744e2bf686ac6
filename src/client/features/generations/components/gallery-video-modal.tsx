import type { ComponentProps } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import type { FinishSlot } from '../remix/remix-actions';
import { VideoDetails, VideoScreen } from './video-details';

interface GalleryVideoModalProps {
  /** The open video; null closes the modal. */
  video: GenerationRecord | null;
  onClose: () => void;
  /** Finish, where the page gives it (a link to the media page, where its dialog can open upload dialogs). */
  finishSlot?: FinishSlot;
}

/** The dashboard gallery's player: the video (playing at once) and its details, as the media page shows them. */
export function GalleryVideoModal({ video, onClose, finishSlot }: GalleryVideoModalProps) {
  return (
    <Dialog open={video !== null} onOpenChange={(open) => !open && onClose()}>
      {video ? (
        <DialogContent className="max-w-3xl gap-5 p-4 sm:p-6">
          <div className="mt-9 overflow-hidden rounded-lg md:mt-7">
            <VideoScreen video={video} autoPlay />
          </div>
          <DialogDescription className="sr-only">Details and actions for this video</DialogDescription>
          <VideoDetails
            video={video}
            place="dashboard"
            onDeleted={onClose}
            titleAs={ModalTitle}
            finishSlot={finishSlot}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** The prompt as the dialog's title; the close button sits above the screen, so no room is kept for it. */
function ModalTitle({ className, ...props }: ComponentProps<typeof DialogTitle>) {
  return <DialogTitle className={`${className ?? ''} pr-0`} {...props} />;
}
