import { Clapperboard } from 'lucide-react';
import { Link } from 'wouter';

import { cn } from '../../lib/utils';

/** The Reelsmith mark and name, linking home. */
export function Brand({ className }: { className?: string }) {
  return (
    <Link
      href="/"
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-linear-to-br from-violet-600 to-fuchsia-600 text-white shadow-sm">
        <Clapperboard aria-hidden="true" className="size-4" />
      </span>
      <span className="text-brand-gradient">Reelsmith</span>
    </Link>
  );
}
