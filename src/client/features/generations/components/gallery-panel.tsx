import { useMemo, useState } from 'react';

import type { GenerationRecord } from '../../../../shared/generations';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { DEFAULT_GALLERY_QUERY, filterGallery, type GalleryQuery, isFiltering } from '../gallery-filter';
import { GalleryEmptyState } from './gallery-empty-state';
import { GalleryToolbar } from './gallery-toolbar';
import { VideoCard } from './video-card';
import { type LayoutView, ViewToggle } from './view-toggle';
import type { FinishSlot } from '../remix/remix-actions';
import { GalleryVideoModal } from './gallery-video-modal';

interface VideoGalleryProps {
  /** undefined while the first answer is loading. */
  videos: readonly GenerationRecord[] | undefined;
  isError: boolean;
  /** The modal player's Finish, where the page gives it. */
  finishSlot?: FinishSlot;
}

/** Screens (docs/product-rules.md): the dashboard's Video Gallery with search, filter, sort, grid/list and the modal player. */
export function VideoGallery({ videos, isError, finishSlot }: VideoGalleryProps) {
  const [query, setQuery] = useState<GalleryQuery>(DEFAULT_GALLERY_QUERY);
  const [view, setView] = useState<LayoutView>('grid');
  // The id, not the record: each poll brings fresh progress, and a deleted video closes the modal.
  const [openId, setOpenId] = useState<string | null>(null);
  const shown = useMemo(() => (videos ? filterGallery(videos, query) : []), [videos, query]);
  const open = videos?.find((video) => video.id === openId) ?? null;
  const total = videos?.length ?? 0;

  return (
    <Card>
      <CardHeader className="gap-4 p-4 sm:p-6">
        <div className="flex items-center justify-between gap-3">
          <div className="flex min-w-0 items-baseline gap-3">
            <CardTitle className="shrink-0">Video Gallery</CardTitle>
            {total > 0 ? (
              <CardDescription aria-live="polite" className="truncate">
                {shown.length === total
                  ? `${total} ${total === 1 ? 'video' : 'videos'}`
                  : `${shown.length} of ${total}`}
              </CardDescription>
            ) : null}
          </div>
          {total > 0 ? <ViewToggle view={view} onViewChange={setView} /> : null}
        </div>
        {total > 0 ? <GalleryToolbar query={query} onQueryChange={setQuery} /> : null}
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        {videos === undefined ? (
          isError ? (
            <p className="rounded-xl border border-dashed border-border px-6 py-12 text-center text-sm text-muted-foreground">
              Your videos could not be loaded. Trying again shortly.
            </p>
          ) : (
            <GallerySkeleton />
          )
        ) : shown.length === 0 ? (
          <GalleryEmptyState
            kind={isFiltering(query) ? 'filtered' : 'none'}
            onClearFilters={() => setQuery({ ...DEFAULT_GALLERY_QUERY, sort: query.sort })}
          />
        ) : (
          <ul
            aria-label="Videos"
            className={cn('grid grid-cols-1 gap-4', view === 'grid' ? 'sm:grid-cols-2 lg:grid-cols-3' : 'gap-3')}
          >
            {shown.map((video) => (
              <li key={video.id} className="flex">
                <VideoCard video={video} view={view} onOpen={setOpenId} withStatus withDelete />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <GalleryVideoModal video={open} onClose={() => setOpenId(null)} finishSlot={finishSlot} />
    </Card>
  );
}

function GallerySkeleton() {
  return (
    <div role="status" aria-label="Loading videos" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((n) => (
        <div
          key={n}
          className={cn(
            'overflow-hidden rounded-xl border border-border',
            n > 0 && 'hidden sm:block',
            n > 1 && 'sm:hidden lg:block',
          )}
        >
          <div className="aspect-video animate-pulse bg-muted" />
          <div className="grid gap-2 p-4">
            <div className="h-4 w-4/5 animate-pulse rounded bg-muted" />
            <div className="h-3 w-1/2 animate-pulse rounded bg-muted" />
          </div>
        </div>
      ))}
    </div>
  );
}
