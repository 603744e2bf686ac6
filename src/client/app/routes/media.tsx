import { Coins, History, Sparkles } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { useGenerations } from '../../features/generations/api/get-generations';
import { isUnfinished } from '../../features/generations/format';
import { MediaInfoPanel } from '../../features/generations/components/media-info-panel';
import { MediaPlayerPane, type MissingVideo } from '../../features/generations/components/media-player-pane';
import type { GenerationRecord } from '../../../shared/generations';
import { isExpiredVideo } from '../../../shared/video-display';
import { useMediaSelection } from '../../features/generations/hooks/use-media-selection';
import { VariationGroup } from '../../features/generations/components/variation-group';
import type { LayoutView } from '../../features/generations/components/view-toggle';
import { type MediaTab, MediaVideoList } from '../../features/generations/components/media-video-list';
import { NotifyOffer } from '../../features/notifications/components/notify-offer';
import { cleanupFiles } from '../../features/uploads/api/cleanup-files';
import { cn } from '../../lib/utils';
import { FinishButton } from '../finish-button';

/**
 * The media page (docs/product-rules.md, Screens): the player with the selected video on the left (on top on phones),
 * the Completed and Processing tabs on the right, and the information panel below. The player has Finish beside
 * Extend (the dashboard's player links here with `&finish=1`, which opens it: that player is a dialog already, over
 * which the upload dialogs could not be used). Videos arrive live (decision 011); `?video={id}` (set by the generator) selects the video just started, whose
 * progress the player shows until it plays. Expired uploads are swept once on load (failures are only logged).
 */
export function MediaPage() {
  const videos = useGenerations();
  const search = new URLSearchParams(useSearch());
  const followId = search.get('video');
  const [, navigate] = useLocation();
  const selection = useMediaSelection(videos.data, followId);
  // Said only while the named video is still the one asked for (not once another is picked, or after a delete).
  const missing = followId && selection.pickedId === followId ? missingVideo(videos.data, followId) : null;
  const [chosenTab, setChosenTab] = useState<MediaTab | null>(null);
  const [view, setView] = useState<LayoutView>('grid');
  const playerRef = useRef<HTMLDivElement>(null);

  // ?finish=1 (the dashboard player's Finish): the Finish dialog opens over the video named, once: the
  // address drops it as soon as that video's player (and its Finish) is on screen.
  const finishFor = search.get('finish') === '1' && selection.selected?.id === followId ? followId : null;
  useEffect(() => {
    if (finishFor) navigate(`/media?video=${encodeURIComponent(finishFor)}`, { replace: true });
  }, [finishFor, navigate]);

  useEffect(() => {
    cleanupFiles().catch((error: unknown) => console.warn('File cleanup failed.', error));
  }, []);

  // Until the user picks a tab: the selected video's tab (it moves to Completed when it is done),
  // else Processing when that is all there is.
  const hasCompleted = videos.data?.some((video) => video.status === 'completed') ?? false;
  const hasUnfinished = videos.data?.some((video) => isUnfinished(video.status)) ?? false;
  const selectedTab = selection.selected
    ? isUnfinished(selection.selected.status)
      ? 'processing'
      : 'completed'
    : null;
  const tab = chosenTab ?? selectedTab ?? (!hasCompleted && hasUnfinished ? 'processing' : 'completed');

  const handleSelect = (id: string) => {
    selection.select(id);
    // On phones the player sits above the list: bring it into view.
    const pane = playerRef.current;
    if (pane && pane.getBoundingClientRect().top < 0) pane.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <AppShell title="My Videos" subtitle="Watch, download and share your videos" width="wide" actions={<MediaLinks />}>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:items-start">
        {/* With nothing to play, phones skip the empty player and start with the list. */}
        <div
          ref={playerRef}
          className={cn('scroll-mt-20 lg:sticky lg:top-22', !selection.selected && !missing && 'hidden lg:block')}
        >
          {/* The video just started is still rendering: offer to be told when it is done (once), above
              the player, where the page opens after Generate. */}
          {selection.selected && followId === selection.selected.id && isUnfinished(selection.selected.status) ? (
            <div className="mb-3">
              <NotifyOffer />
            </div>
          ) : null}
          <MediaPlayerPane
            video={missing ? null : selection.selected}
            missing={missing}
            onDeleted={selection.clear}
            onInteract={selection.pin}
            finishSlot={(video) => <FinishButton key={video.id} video={video} open={video.id === finishFor} />}
          />
          <div className="mt-6 empty:hidden">
            <VariationGroup videos={videos.data} selected={selection.selected} onPick={handleSelect} />
          </div>
        </div>
        <div className="grid min-w-0 gap-6">
          <MediaVideoList
            videos={videos.data}
            isError={videos.isError}
            tab={tab}
            onTabChange={setChosenTab}
            view={view}
            onViewChange={setView}
            selectedId={selection.selected?.id ?? null}
            onSelect={handleSelect}
          />
          <MediaInfoPanel />
        </div>
      </div>
    </AppShell>
  );
}

/**
 * The video `?video=` names, when it cannot be played: past its 24 hours, or not in the list (swept
 * after its 24 hours, deleted, someone else's, or a mistyped link). Null while the list loads.
 */
function missingVideo(videos: GenerationRecord[] | undefined, followId: string | null): MissingVideo | null {
  if (!followId || !videos) return null;
  const video = videos.find((candidate) => candidate.id === followId);
  if (!video) return 'not-found';
  return isExpiredVideo(video) ? 'expired' : null;
}

/** Screens (docs/product-rules.md): links to the generator, the history and the credits pages. */
function MediaLinks() {
  return (
    <nav aria-label="Media links" className="grid grid-cols-3 gap-2 sm:flex">
      <Link href="/generator" className={buttonVariants({ variant: 'brand', size: 'sm' })}>
        <Sparkles aria-hidden="true" />
        <span>
          Create <span className="sr-only sm:not-sr-only">Video</span>
        </span>
      </Link>
      <Link href="/history" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <History aria-hidden="true" /> History
      </Link>
      <Link href="/credits" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        <Coins aria-hidden="true" /> Credits
      </Link>
    </nav>
  );
}
