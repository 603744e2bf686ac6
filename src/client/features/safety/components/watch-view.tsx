import { CalendarDays, Download, Flag, ShieldCheck, Timer, VideoOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import type { WatchedVideo } from '../../../../shared/safety';
import { videoFileName } from '../../../../shared/video-display';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, getServerMessage } from '../../../lib/api-client';
import { useWatchedVideo } from '../api/get-watched-video';
import { formatWhen } from '../format';

/** The report form, naming the video by this page's own full address. */
export const reportHrefFor = (watchUrl: string) => `/report?video=${encodeURIComponent(watchUrl)}`;

/** A shared video's page: the video, when it was made and leaves, its signer, and a way to report it. */
export function WatchView({ token }: { token: string }) {
  const watched = useWatchedVideo(token);
  if (watched.isPending) return <Spinner className="mx-auto my-16 flex justify-center" label="Loading the video" />;
  if (watched.isError) {
    if (watched.error instanceof ApiError && watched.error.status === 404) {
      // The server's sentence for this page's own 404, never a route's.
      return (
        <WatchNotFound message={watched.error.code === 'watch_not_found' ? getServerMessage(watched.error) : null} />
      );
    }
    return (
      <WatchProblem title="The video could not be loaded" icon={<VideoOff aria-hidden="true" />}>
        <p>Please check your connection and try again.</p>
        <Button variant="outline" onClick={() => void watched.refetch()}>
          Try Again
        </Button>
      </WatchProblem>
    );
  }
  return <WatchedVideoView video={watched.data} />;
}

function WatchedVideoView({ video }: { video: WatchedVideo }) {
  return (
    <article aria-labelledby="watch-title" className="grid gap-4">
      <video
        src={video.videoUrl}
        poster={video.posterUrl ?? undefined}
        controls
        playsInline
        preload="metadata"
        aria-label="Video player"
        className="max-h-[70dvh] w-full rounded-xl bg-black object-contain shadow-sm"
      />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <h1 id="watch-title" className="text-xl font-bold tracking-tight sm:text-2xl">
            A shared video
          </h1>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <li className="inline-flex items-center gap-1.5">
              <CalendarDays aria-hidden="true" className="size-4" />
              Made <time dateTime={video.createdAt}>{formatWhen(video.createdAt)}</time>
            </li>
            <li className="inline-flex items-center gap-1.5">
              <Timer aria-hidden="true" className="size-4" />
              {video.expiresAt ? (
                <span>
                  Available until <time dateTime={video.expiresAt}>{formatWhen(video.expiresAt)}</time>
                </span>
              ) : (
                'Kept by its owner'
              )}
            </li>
          </ul>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* Same origin: the browser saves the file as it streams, under the product's file name. */}
          <a
            href={video.videoUrl}
            download={videoFileName(video.id)}
            className={buttonVariants({ variant: 'outline' })}
          >
            <Download aria-hidden="true" /> Download
          </a>
          <Link href={reportHrefFor(window.location.href)} className={buttonVariants({ variant: 'outline' })}>
            <Flag aria-hidden="true" /> Report this video
          </Link>
        </div>
      </div>
      {video.signedBy ? (
        <p className="flex items-start gap-2 rounded-lg bg-muted/60 p-3 text-sm">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
          <span>
            Content Credentials signed by <strong className="break-words">{video.signedBy}</strong>.{' '}
            <Link href="/verify" className="font-medium text-primary underline-offset-4 hover:underline">
              Check a video's credentials
            </Link>
          </span>
        </p>
      ) : null}
    </article>
  );
}

function WatchNotFound({ message }: { message: string | null }) {
  return (
    <WatchProblem title="This video is not available" icon={<VideoOff aria-hidden="true" />}>
      <p>{message ?? 'It may have expired or been removed, or the link is not complete.'}</p>
      <p>Shared videos are kept for a limited time.</p>
      <Link href="/" className={buttonVariants({ variant: 'brand', className: 'mt-2' })}>
        Go to Reelsmith
      </Link>
    </WatchProblem>
  );
}

function WatchProblem({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section
      aria-labelledby="watch-problem"
      className="mx-auto grid max-w-md justify-items-center gap-3 py-12 text-center text-sm text-muted-foreground"
    >
      <div className="flex size-12 items-center justify-center rounded-xl bg-muted text-primary [&_svg]:size-6">
        {icon}
      </div>
      <h1 id="watch-problem" className="text-xl font-bold text-foreground">
        {title}
      </h1>
      {children}
    </section>
  );
}
