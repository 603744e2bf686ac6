import { isExpiredVideo } from '../../../shared/video-display';
import type { GenerationRecord } from '../../../shared/generations';

/** The gallery's status filter (docs/product-rules.md, Screens); 'all' because a Radix Select item cannot have an empty value. */
export const GALLERY_STATUS_FILTERS = ['all', 'completed', 'processing', 'failed', 'pending'] as const;
export type GalleryStatusFilter = (typeof GALLERY_STATUS_FILTERS)[number];

/** The gallery's sort orders (docs/product-rules.md, Screens). */
export const GALLERY_SORTS = ['newest', 'oldest', 'credits', 'duration'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

export interface GalleryQuery {
  search: string;
  status: GalleryStatusFilter;
  sort: GallerySort;
}

export const DEFAULT_GALLERY_QUERY: GalleryQuery = { search: '', status: 'all', sort: 'newest' };

export function isGalleryStatusFilter(value: string): value is GalleryStatusFilter {
  return (GALLERY_STATUS_FILTERS as readonly string[]).includes(value);
}

export function isGallerySort(value: string): value is GallerySort {
  return (GALLERY_SORTS as readonly string[]).includes(value);
}

type Comparable = Pick<GenerationRecord, 'createdAt' | 'creditsUsed' | 'duration'>;

const createdTime = (video: Comparable) => new Date(video.createdAt).getTime() || 0;
const newestFirst = (a: Comparable, b: Comparable) => createdTime(b) - createdTime(a);

/** Credits and duration sort highest first; equal values fall back to newest first. */
const COMPARATORS: Record<GallerySort, (a: Comparable, b: Comparable) => number> = {
  newest: newestFirst,
  oldest: (a, b) => createdTime(a) - createdTime(b),
  credits: (a, b) => b.creditsUsed - a.creditsUsed || newestFirst(a, b),
  duration: (a, b) => b.duration - a.duration || newestFirst(a, b),
};

/**
 * The videos the gallery shows: the prompt contains the search text (any case, surrounding spaces
 * ignored), the status matches exactly unless the filter is 'all', in the chosen order. Returns a
 * new array; the input is left as it is.
 */
export function filterGallery<
  T extends Comparable & Pick<GenerationRecord, 'prompt' | 'status'> & { expiresAt?: string | null },
>(videos: readonly T[], query: GalleryQuery): T[] {
  const needle = query.search.trim().toLowerCase();
  return (
    videos
      // An expired video is no longer 'completed' (decision 012): the completed filter leaves it out.
      .filter(
        (video) =>
          query.status === 'all' ||
          (video.status === query.status && !(query.status === 'completed' && isExpiredVideo(video))),
      )
      .filter((video) => !needle || video.prompt.toLowerCase().includes(needle))
      .sort(COMPARATORS[query.sort])
  );
}

/** True when the query narrows the list, so an empty result means 'No videos found' rather than 'No videos yet'. */
export function isFiltering(query: GalleryQuery): boolean {
  return query.search.trim() !== '' || query.status !== 'all';
}
