import { CalendarDays, Clock, Coins, Download, type LucideIcon, Share2, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { shareVideo, useVideoDownload } from '../hooks/use-video-actions';
import { RemixActions } from '../remix/remix-actions';
import { DeleteVideoDialog } from './delete-video-dialog';
import { ExpiryCountdown } from './expiry-countdown';
import { formatCreditCount } from '../../../../shared/money/credits';
import { formatCreatedTime } from '../format';
import { GalleryPoster } from './gallery-poster';
import { StatusBadge } from './status-badge';
import { VideoPlayer } from './video-player';

interface GalleryVideoModalProps {
  /** The open video; null closes the modal. */
  video: GenerationRecord | null;
  onClose: () => void;
}

/**
 * The gallery's player: the video with its poster, the prompt, created time, duration and credits;
 * Download and Share once it is ready; Delete behind the confirmation dialog.
 */
export function GalleryVideoModal({ video, onClose }: GalleryVideoModalProps) {
  return (
    <Dialog open={video !== null} onOpenChange={(open) => !open && onClose()}>
      {video ? (
        <DialogContent className="max-w-3xl gap-5 p-4 sm:p-6">
          <ModalBody video={video} onClose={onClose} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function ModalBody({ video, onClose }: { video: GenerationRecord; onClose: () => void }) {
  const download = useVideoDownload('Download Started');
  const playable = video.status === 'completed' && video.outputVideoUrl !== null;
  return (
    <>
      <div className="mt-7 overflow-hidden rounded-lg">
        {playable ? (
          <VideoPlayer src={video.outputVideoUrl} poster={video.posterUrl} autoPlay className="rounded-none" />
        ) : video.status === 'completed' ? (
          <VideoPlayer src={null} className="rounded-none" />
        ) : (
          <GalleryPoster video={video} />
        )}
      </div>
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <StatusBadge status={video.status} expiresAt={video.expiresAt} />
          <ExpiryCountdown expiresAt={video.expiresAt} />
        </div>
        <DialogTitle className="pr-0 text-base leading-snug break-words sm:text-lg">
          {video.prompt || 'Untitled video'}
        </DialogTitle>
        <DialogDescription className="sr-only">Details and actions for this video</DialogDescription>
        {video.status === 'failed' && video.errorMessage ? (
          <p className="text-sm text-destructive">{video.errorMessage}</p>
        ) : null}
      </div>
      <dl className="grid grid-cols-1 gap-2 rounded-lg bg-muted/60 p-3 text-sm sm:grid-cols-3 sm:gap-4">
        <Fact icon={CalendarDays} label="Created">
          <time dateTime={video.createdAt}>{formatCreatedTime(video.createdAt)}</time>
        </Fact>
        <Fact icon={Clock} label="Duration">
          {video.duration} seconds
        </Fact>
        <Fact icon={Coins} label="Credits">
          {formatCreditCount(video.creditsUsed)}
        </Fact>
      </dl>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center">
        <DeleteVideoDialog
          videoId={video.id}
          failureText="server"
          onDeleted={onClose}
          trigger={
            <Button
              variant="outline"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive sm:mr-auto"
            >
              <Trash2 aria-hidden="true" /> Delete
            </Button>
          }
        />
        {playable ? (
          <>
            <Button variant="outline" onClick={() => void shareVideo(video)}>
              <Share2 aria-hidden="true" /> Share
            </Button>
            <Button variant="brand" onClick={() => void download(video)}>
              <Download aria-hidden="true" /> Download
            </Button>
          </>
        ) : null}
      </div>
      <RemixActions video={video} />
    </>
  );
}

function Fact({ icon: Icon, label, children }: { icon: LucideIcon; label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 sm:grid sm:justify-start sm:gap-0.5">
      <dt className="inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <Icon aria-hidden="true" className="size-3.5" />
        {label}
      </dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
