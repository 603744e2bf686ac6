import {
  CalendarDays,
  Clapperboard,
  Clock,
  Coins,
  Cpu,
  Download,
  LoaderCircle,
  type LucideIcon,
  Share2,
  Timer,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { isExpiredVideo } from '../../../../shared/video-display';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { canShareNatively, shareVideo, useVideoDownload } from '../hooks/use-video-actions';
import { DeleteVideoDialog } from './delete-video-dialog';
import { ExpiryCountdown } from './expiry-countdown';
import { formatCreditCount } from '../../../../shared/money/credits';
import { formatCreatedTime, formatModel } from '../format';
import { RemixActions } from '../remix/remix-actions';
import { useModels } from '../api/get-models';
import { GenerationProgress } from './generation-progress';
import { ProgressTiming } from './progress-timing';
import { StatusBadge } from './status-badge';
import { VideoPlayer } from './video-player';

interface MediaPlayerPaneProps {
  video: GenerationRecord | null;
  /** The selected video was deleted: the selection clears (spec section 8). */
  onDeleted: () => void;
  /** The user touched the pane: keep this video even if a newer one completes. */
  onInteract: () => void;
}

const SCREEN =
  'flex aspect-video w-full flex-col items-center justify-center gap-3 bg-linear-to-br from-violet-500/15 via-muted to-fuchsia-500/15 px-6 text-center';

/** The player with the selected video's details and its Download, Share and Delete buttons. */
export function MediaPlayerPane({ video, onDeleted, onInteract }: MediaPlayerPaneProps) {
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
          <PlayerScreen video={video} />
          <PlayerDetails video={video} onDeleted={onDeleted} />
        </>
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

function PlayerScreen({ video }: { video: GenerationRecord }) {
  if (isExpiredVideo(video)) {
    return (
      <div className={SCREEN}>
        <Timer aria-hidden="true" className="size-9 text-muted-foreground" />
        <p className="font-semibold">This video has expired</p>
        <p className="text-xs text-muted-foreground">
          Videos are deleted 24 hours after they are made. You can remove it from your list.
        </p>
      </div>
    );
  }
  if (video.status === 'completed')
    return <VideoPlayer src={video.outputVideoUrl} poster={video.posterUrl} className="rounded-none" />;
  if (video.status === 'failed') {
    return (
      <div className={SCREEN}>
        <TriangleAlert aria-hidden="true" className="size-9 text-destructive" />
        <p className="font-semibold">Generation failed</p>
      </div>
    );
  }
  return (
    <div className={SCREEN}>
      <LoaderCircle aria-hidden="true" className="size-9 animate-spin text-violet-600 dark:text-violet-400" />
      <GenerationProgress
        variant="stage-caption"
        progress={video.progress}
        stage={video.progressStage}
        label="Generation progress"
        className="max-w-xs bg-background/70"
        captionClassName="text-sm font-medium"
      />
      <ProgressTiming video={video} />
    </div>
  );
}

function PlayerDetails({ video, onDeleted }: { video: GenerationRecord; onDeleted: () => void }) {
  const models = useModels();
  return (
    <div className="grid gap-4 p-4 sm:p-6">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <StatusBadge status={video.status} expiresAt={video.expiresAt} />
          <ExpiryCountdown expiresAt={video.expiresAt} />
        </div>
        <h2 className="text-base leading-snug font-semibold break-words sm:text-lg">
          {video.prompt || 'Untitled video'}
        </h2>
        {video.status === 'failed' && video.errorMessage ? (
          <p className="text-sm text-red-700 dark:text-red-400">{video.errorMessage}</p>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted/60 p-3 text-sm sm:flex sm:flex-wrap sm:justify-between sm:gap-x-6">
        <Fact icon={CalendarDays} label="Created" className="col-span-2">
          <time dateTime={video.createdAt}>{formatCreatedTime(video.createdAt)}</time>
        </Fact>
        <Fact icon={Clock} label="Duration">
          {video.duration} seconds
        </Fact>
        <Fact icon={Coins} label="Credits">
          {formatCreditCount(video.creditsUsed)}
        </Fact>
        <Fact icon={Cpu} label="Model" className="col-span-2">
          {formatModel(video.model, models.data)}
          {video.hasAudio ? <span className="text-muted-foreground"> · with audio</span> : null}
        </Fact>
      </dl>
      <PlayerActions video={video} onDeleted={onDeleted} />
      <RemixActions video={video} />
    </div>
  );
}

function PlayerActions({ video, onDeleted }: { video: GenerationRecord; onDeleted: () => void }) {
  const download = useVideoDownload('Download Complete');
  const [downloading, setDownloading] = useState(false);
  const ready = video.status === 'completed' && video.outputVideoUrl !== null && !isExpiredVideo(video);
  const handleDownload = async () => {
    setDownloading(true);
    try {
      await download(video);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="grid grid-cols-2 gap-2 sm:flex sm:items-center">
      <Button
        variant="brand"
        className="col-span-2"
        disabled={!ready || downloading}
        onClick={() => void handleDownload()}
      >
        <Download aria-hidden="true" /> {downloading ? 'Downloading...' : 'Download'}
      </Button>
      <Button
        variant="outline"
        disabled={!ready}
        title={canShareNatively() ? 'Share this video' : 'Copy the video link'}
        onClick={() => void shareVideo(video)}
      >
        <Share2 aria-hidden="true" /> Share
      </Button>
      <DeleteVideoDialog
        videoId={video.id}
        failureText="generic"
        onDeleted={onDeleted}
        trigger={
          <Button
            variant="outline"
            className="text-red-700 hover:bg-red-500/10 hover:text-red-700 sm:ml-auto dark:text-red-400 dark:hover:text-red-300"
          >
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        }
      />
    </div>
  );
}

function Fact({
  icon: Icon,
  label,
  className,
  children,
}: {
  icon: LucideIcon;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt className="inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <Icon aria-hidden="true" className="size-3.5" />
        {label}
      </dt>
      <dd className="mt-0.5 font-medium sm:whitespace-nowrap">{children}</dd>
    </div>
  );
}
