import { Clapperboard } from 'lucide-react';
import { Link } from 'wouter';

import { cn } from '../../lib/utils';

/** The Reelsmith mark and name, linking home. */
/**
 * The logo and the name. `compactOnPhones`: below 420 px wide the name is read but not shown (the
 * signed-in header needs the room for its buttons).
 */
export function Brand({ className, compactOnPhones = false }: { className?: string; compactOnPhones?: boolean }) {
  return (
    <Link
      href="/"
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight max-md:min-h-11 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-linear-to-br from-violet-600 to-fuchsia-600 text-white shadow-sm">
        <Clapperboard aria-hidden="true" className="size-4" />
      </span>
      <span className={cn('text-brand-gradient', compactOnPhones && 'max-[419px]:sr-only')}>Reelsmith</span>
    </Link>
  );
}
