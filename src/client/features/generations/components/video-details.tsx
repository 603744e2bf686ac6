import { CalendarDays, Clock, Coins, Cpu, LoaderCircle, type LucideIcon, Timer, TriangleAlert } from 'lucide-react';
import type { ElementType, ReactNode } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { formatCreditCount } from '../../../../shared/money/credits';
import { isExpiredVideo } from '../../../../shared/video-display';
import { retentionWords } from '../../../lib/retention';
import { cn } from '../../../lib/utils';
import { useModels } from '../api/get-models';
import { formatCreatedTime, formatModel } from '../format';
import { type FinishSlot, RemixActions } from '../remix/remix-actions';
import { CredentialsMark } from './credentials-mark';
import { ExpiryCountdown } from './expiry-countdown';
import { KeepToggle } from './keep-toggle';
import { GenerationProgress } from './generation-progress';
import { ProgressTiming } from './progress-timing';
import { DraftBadge, StatusBadge } from './status-badge';
import { VideoActions, type VideoActionsPlace } from './video-actions';
import { VideoPlayer } from './video-player';

// One video in detail, as the dashboard's player dialog and the media page's pane both show it.

export const SCREEN =
  'flex aspect-video w-full flex-col items-center justify-center gap-3 bg-linear-to-br from-violet-500/15 via-muted to-fuchsia-500/15 px-6 text-center';

/** The player of a completed video, or what stands in for it: expired, failed, or its progress and timing. */
export function VideoScreen({ video, autoPlay = false }: { video: GenerationRecord; autoPlay?: boolean }) {
  if (isExpiredVideo(video)) {
    return (
      <div className={SCREEN}>
        <Timer aria-hidden="true" className="size-9 text-muted-foreground" />
        <p className="font-semibold">This video has expired</p>
        <p className="text-xs text-muted-foreground">
          Videos are deleted {retentionWords()} after they are made. You can remove it from your list.
        </p>
      </div>
    );
  }
  if (video.status === 'completed') {
    return (
      <VideoPlayer src={video.outputVideoUrl} poster={video.posterUrl} autoPlay={autoPlay} className="rounded-none" />
    );
  }
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

interface VideoDetailsProps {
  video: GenerationRecord;
  place: VideoActionsPlace;
  onDeleted: () => void;
  /** The prompt's heading element: the dialog's title in the dialog, an h2 in the pane. */
  titleAs?: ElementType<{ className?: string; children?: ReactNode }>;
  /** The Finish button beside Extend, where the page gives one. */
  finishSlot?: FinishSlot;
  className?: string;
}

/** Status and time left, the prompt, any failure, the facts, then the actions and Remix/Continue. */
export function VideoDetails({
  video,
  place,
  onDeleted,
  titleAs: Title = 'h2',
  finishSlot,
  className,
}: VideoDetailsProps) {
  return (
    <div className={cn('grid gap-4', className)}>
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <StatusBadge status={video.status} expiresAt={video.expiresAt} />
          <DraftBadge video={video} />
          <ExpiryCountdown expiresAt={video.expiresAt} kept={video.kept} />
          <KeepToggle video={video} />
        </div>
        <Title className="text-base leading-snug font-semibold break-words sm:text-lg">
          {video.prompt || 'Untitled video'}
        </Title>
        {video.status === 'failed' && video.errorMessage ? (
          <p className="text-sm text-destructive">{video.errorMessage}</p>
        ) : null}
      </div>
      <VideoFacts video={video} />
      <CredentialsMark video={video} />
      <VideoActions video={video} place={place} onDeleted={onDeleted} />
      <RemixActions video={video} finishSlot={finishSlot} />
    </div>
  );
}

/** Created, length, credits and the model (with audio or not), the model named as the catalogue names it. */
export function VideoFacts({ video }: { video: GenerationRecord }) {
  const models = useModels();
  return (
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
