import { CheckCircle2, LoaderCircle, type LucideIcon, Sparkles } from 'lucide-react';
import { Link } from 'wouter';

import { isExpiredVideo } from '../../../../shared/video-display';
import type { GenerationRecord } from '../../../../shared/generations';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/utils';
import { isUnfinished } from '../format';
import { VideoCard } from './video-card';
import { type LayoutView, ViewToggle } from './view-toggle';

export type MediaTab = 'completed' | 'processing';

interface MediaVideoListProps {
  videos: GenerationRecord[] | undefined;
  isError: boolean;
  tab: MediaTab;
  onTabChange: (tab: MediaTab) => void;
  view: LayoutView;
  onViewChange: (view: LayoutView) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** Screens (docs/product-rules.md): tabs 'Completed (n)' and 'Processing (n)', grid or list; failed videos in a section below. */
export function MediaVideoList({
  videos,
  isError,
  tab,
  onTabChange,
  view,
  onViewChange,
  selectedId,
  onSelect,
}: MediaVideoListProps) {
  const all = videos ?? [];
  // Expired videos are not counted as completed: they are listed below, to be removed.
  const completed = all.filter((video) => video.status === 'completed' && !isExpiredVideo(video));
  const expired = all.filter((video) => isExpiredVideo(video));
  const processing = all.filter((video) => isUnfinished(video.status));
  const failed = all.filter((video) => video.status === 'failed');
  const itemsProps = { view, selectedId, onSelect };
  return (
    <Card role="region" aria-labelledby="media-list-heading" className="p-4 sm:p-5">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 id="media-list-heading" className="text-base font-semibold">
          Your videos
        </h2>
        <ViewToggle view={view} onViewChange={onViewChange} />
      </div>
      <Tabs value={tab} onValueChange={(value) => onTabChange(value === 'processing' ? 'processing' : 'completed')}>
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="completed">
            <CheckCircle2 aria-hidden="true" />
            Completed ({completed.length})
          </TabsTrigger>
          <TabsTrigger value="processing">
            <LoaderCircle aria-hidden="true" className={cn(processing.length > 0 && 'animate-spin')} />
            Processing ({processing.length})
          </TabsTrigger>
        </TabsList>
        {videos === undefined ? (
          <ListStatus isError={isError} />
        ) : (
          <>
            <TabsContent value="completed">
              {completed.length > 0 ? (
                <MediaItems videos={completed} label="Completed videos" {...itemsProps} />
              ) : (
                <MediaEmptyState
                  icon={CheckCircle2}
                  title="No completed videos yet"
                  description="Finished videos appear here, ready to watch, download and share."
                />
              )}
            </TabsContent>
            <TabsContent value="processing">
              {processing.length > 0 ? (
                <MediaItems videos={processing} label="Processing videos" {...itemsProps} />
              ) : (
                <MediaEmptyState
                  icon={LoaderCircle}
                  title="No videos processing"
                  description="Videos you start show their progress here."
                />
              )}
            </TabsContent>
          </>
        )}
      </Tabs>
      {expired.length > 0 ? (
        <section aria-labelledby="media-expired-heading" className="mt-6 border-t border-border pt-4">
          <h2 id="media-expired-heading" className="mb-3 text-sm font-semibold text-muted-foreground">
            Expired ({expired.length})
          </h2>
          <MediaItems videos={expired} label="Expired videos" {...itemsProps} view="list" />
        </section>
      ) : null}
      {failed.length > 0 ? (
        <section aria-labelledby="media-failed-heading" className="mt-6 border-t border-border pt-4">
          <h2 id="media-failed-heading" className="mb-3 text-sm font-semibold text-muted-foreground">
            Failed ({failed.length})
          </h2>
          <MediaItems videos={failed} label="Failed videos" {...itemsProps} view="list" />
        </section>
      ) : null}
    </Card>
  );
}

interface MediaItemsProps {
  videos: GenerationRecord[];
  label: string;
  view: LayoutView;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

function MediaItems({ videos, label, view, selectedId, onSelect }: MediaItemsProps) {
  return (
    <ul
      aria-label={label}
      className={view === 'grid' ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2' : 'grid gap-2'}
    >
      {videos.map((video) => (
        <li key={video.id} className="min-w-0">
          <VideoCard video={video} view={view} selected={video.id === selectedId} onOpen={onSelect} />
        </li>
      ))}
    </ul>
  );
}

function ListStatus({ isError }: { isError: boolean }) {
  if (!isError) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading videos" />
      </div>
    );
  }
  return (
    <p role="alert" className="mt-4 rounded-lg bg-muted px-4 py-6 text-center text-sm text-muted-foreground">
      Your videos could not be loaded right now. Trying again every few seconds.
    </p>
  );
}

function MediaEmptyState({ icon: Icon, title, description }: { icon: LucideIcon; title: string; description: string }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-border px-6 py-10 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-linear-to-br from-violet-500/15 to-fuchsia-500/15 text-violet-700 dark:text-violet-300">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <div className="grid gap-1">
        <h3 className="text-base font-semibold">{title}</h3>
        <p className="max-w-xs text-sm text-muted-foreground">{description}</p>
      </div>
      <Link href="/generator" className={buttonVariants({ variant: 'brand', size: 'sm', className: 'mt-1' })}>
        <Sparkles aria-hidden="true" /> Create Video
      </Link>
    </div>
  );
}
