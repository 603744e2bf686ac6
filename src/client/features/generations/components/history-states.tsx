import { Clapperboard, RotateCw, Sparkles, TriangleAlert } from 'lucide-react';
import { Link } from 'wouter';

import { Button, buttonVariants } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';

const BOX = 'flex flex-col items-center gap-3 rounded-xl border border-dashed border-border px-6 py-14 text-center';

export function HistoryLoading() {
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Loading history" />
    </div>
  );
}

/** Screens (docs/product-rules.md): 'No Videos Yet' with a Create Video link. */
export function HistoryEmpty() {
  return (
    <div className={BOX}>
      <span className="flex size-14 items-center justify-center rounded-full bg-linear-to-br from-violet-500/15 to-fuchsia-500/15 text-violet-700 dark:text-violet-300">
        <Clapperboard aria-hidden="true" className="size-7" />
      </span>
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">No Videos Yet</h2>
        <p className="max-w-sm text-sm text-muted-foreground">
          Every video you generate is listed here, with its status and cost.
        </p>
      </div>
      <Link href="/generator" className={buttonVariants({ variant: 'brand', className: 'mt-1' })}>
        <Sparkles aria-hidden="true" /> Create Video
      </Link>
    </div>
  );
}

export function HistoryError({ onRetry, isRetrying }: { onRetry: () => void; isRetrying: boolean }) {
  return (
    <div role="alert" className={BOX}>
      <span className="flex size-14 items-center justify-center rounded-full bg-red-500/10 text-red-700 dark:text-red-300">
        <TriangleAlert aria-hidden="true" className="size-7" />
      </span>
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">History unavailable</h2>
        <p className="max-w-sm text-sm text-muted-foreground">
          Your generation history could not be loaded. Please try again.
        </p>
      </div>
      <Button variant="outline" className="mt-1" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden="true" className={isRetrying ? 'animate-spin' : undefined} /> Try Again
      </Button>
    </div>
  );
}
