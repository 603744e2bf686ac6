import { Clapperboard, SearchX, Sparkles } from 'lucide-react';
import { Link } from 'wouter';

import { Button, buttonVariants } from '../../../components/ui/button';

/** 'No videos yet' when the user has none; 'No videos found' when the search or filter hides them all. */
export function GalleryEmptyState({ kind, onClearFilters }: { kind: 'none' | 'filtered'; onClearFilters: () => void }) {
  const none = kind === 'none';
  const Icon = none ? Clapperboard : SearchX;
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-border px-6 py-12 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-linear-to-br from-violet-500/15 to-fuchsia-500/15 text-violet-700 dark:text-violet-300">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <div className="grid gap-1">
        <h3 className="text-base font-semibold">{none ? 'No videos yet' : 'No videos found'}</h3>
        <p className="max-w-sm text-sm text-muted-foreground">
          {none ? 'Describe a scene and your first video will show up here.' : 'Try adjusting your search or filters'}
        </p>
      </div>
      {none ? (
        <Link href="/generator" className={buttonVariants({ variant: 'brand', className: 'mt-1' })}>
          <Sparkles aria-hidden="true" /> Create Video
        </Link>
      ) : (
        <Button variant="outline" className="mt-1" onClick={onClearFilters}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
