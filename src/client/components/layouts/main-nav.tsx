import { cn } from '../../lib/utils';
import { NavLinks } from './nav-links';

/** The signed-in navigation on tablets and desktops: a row of tabs under the header (hidden on phones). */
export function MainNav({ maxWidth }: { maxWidth: string }) {
  return (
    <nav aria-label="Main" className="hidden border-t border-border md:block">
      <NavLinks variant="tabs" className={cn('mx-auto flex w-full gap-1 overflow-x-auto px-4 sm:px-6', maxWidth)} />
    </nav>
  );
}
