import { Download, Flag, Share2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import type { GenerationRecord } from '../../../../shared/generations';
import { isPlayable } from '../../../../shared/video-display';
import { Button, buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import {
  canShareNatively,
  linkExpiryWords,
  reportHref,
  shareVideo,
  useVideoDownload,
} from '../hooks/use-video-actions';
import { DeleteVideoDialog } from './delete-video-dialog';

/**
 * Where the actions are: the dashboard's player dialog or the media page's pane. The wording of the
 * download and delete toasts differs by page (the dashboard says 'Download Started' and shows the
 * server's reason a delete failed). The pane keeps Download and Share in place, disabled, while its
 * video is not ready, so they light up where they are when a followed video completes; the
 * dialog, opened on one video, shows only what can be done with it.
 */
export type VideoActionsPlace = 'dashboard' | 'media';

interface VideoActionsProps {
  video: GenerationRecord;
  place: VideoActionsPlace;
  onDeleted: () => void;
}

const REPORT_TITLE = 'Report this video to the people who run this server';

/** Download, Share, Report and Delete (behind its confirmation) for the video shown. */
export function VideoActions({ video, place, onDeleted }: VideoActionsProps) {
  const download = useVideoDownload(place === 'dashboard' ? 'Download Started' : 'Download Complete');
  const [downloading, setDownloading] = useState(false);
  const playable = isPlayable(video);
  const showFileActions = playable || place === 'media';
  const handleDownload = async () => {
    setDownloading(true);
    try {
      await download(video);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className={cn('grid gap-2 sm:flex sm:items-center', showFileActions ? 'grid-cols-3' : 'grid-cols-2')}>
      {showFileActions ? (
        <>
          <Button
            variant="brand"
            className="col-span-3"
            disabled={!playable || downloading}
            onClick={() => void handleDownload()}
          >
            <Download aria-hidden="true" /> {downloading ? 'Downloading...' : 'Download'}
          </Button>
          <Button
            variant="outline"
            disabled={!playable}
            title={[canShareNatively() ? 'Share this video.' : 'Copy the video link.', linkExpiryWords(video.expiresAt)]
              .filter(Boolean)
              .join(' ')}
            onClick={() => void shareVideo(video)}
          >
            <Share2 aria-hidden="true" /> Share
          </Button>
          {playable ? (
            <Link href={reportHref(video)} title={REPORT_TITLE} className={buttonVariants({ variant: 'outline' })}>
              <Flag aria-hidden="true" /> Report
            </Link>
          ) : (
            <Button variant="outline" disabled title={REPORT_TITLE}>
              <Flag aria-hidden="true" /> Report
            </Button>
          )}
        </>
      ) : null}
      <DeleteVideoDialog
        videoId={video.id}
        failureText={place === 'dashboard' ? 'server' : 'generic'}
        onDeleted={onDeleted}
        trigger={
          <Button
            variant="outline"
            className={cn(
              'text-destructive hover:bg-destructive/10 hover:text-destructive sm:ml-auto',
              !showFileActions && 'col-span-2',
            )}
          >
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        }
      />
    </div>
  );
}
