import { LoaderCircle } from 'lucide-react';

import { cn } from '../../lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className={cn('inline-flex', className)}>
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary" />
    </span>
  );
}

/** Fills the viewport while authentication or a page's code is loading. */
export function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-background">
      <Spinner />
    </div>
  );
}
