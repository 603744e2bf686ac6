import { Search, X } from 'lucide-react';

import { Input } from '../../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import {
  GALLERY_SORTS,
  GALLERY_STATUS_FILTERS,
  type GalleryQuery,
  type GallerySort,
  type GalleryStatusFilter,
  isGallerySort,
  isGalleryStatusFilter,
} from '../gallery-filter';

const STATUS_LABELS: Record<GalleryStatusFilter, string> = {
  all: 'All statuses',
  completed: 'Completed',
  processing: 'Processing',
  failed: 'Failed',
  pending: 'Pending',
};

const SORT_LABELS: Record<GallerySort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  credits: 'Most credits',
  duration: 'Longest duration',
};

interface GalleryToolbarProps {
  query: GalleryQuery;
  onQueryChange: (query: GalleryQuery) => void;
}

/** Search, status filter and sort of the Video Gallery. */
export function GalleryToolbar({ query, onQueryChange }: GalleryToolbarProps) {
  const update = (change: Partial<GalleryQuery>) => onQueryChange({ ...query, ...change });
  return (
    <div className="flex flex-col gap-3 md:flex-row md:items-center">
      <div className="relative min-w-0 flex-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          value={query.search}
          onChange={(event) => update({ search: event.target.value })}
          placeholder="Search videos..."
          aria-label="Search videos"
          className="h-11 pr-9 pl-9 md:h-10 [&::-webkit-search-cancel-button]:hidden"
        />
        {query.search ? (
          <button
            type="button"
            onClick={() => update({ search: '' })}
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded-md p-1 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden="true" className="size-4" />
            <span className="sr-only">Clear search</span>
          </button>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-2 md:flex md:items-center">
        <Select
          value={query.status}
          onValueChange={(value) => isGalleryStatusFilter(value) && update({ status: value })}
        >
          <SelectTrigger aria-label="Filter by status" className="md:w-40">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GALLERY_STATUS_FILTERS.map((status) => (
              <SelectItem key={status} value={status}>
                {STATUS_LABELS[status]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={query.sort} onValueChange={(value) => isGallerySort(value) && update({ sort: value })}>
          <SelectTrigger aria-label="Sort videos" className="md:w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GALLERY_SORTS.map((sort) => (
              <SelectItem key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}
