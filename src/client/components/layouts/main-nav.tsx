import { Link, useLocation } from 'wouter';

import { cn } from '../../lib/utils';
import { isActive, NAV_ITEMS } from './nav-items';

/** The signed-in navigation on tablets and desktops: a row of tabs under the header (hidden on phones). */
export function MainNav({ maxWidth }: { maxWidth: string }) {
  const [location] = useLocation();
  return (
    <nav aria-label="Main" className="hidden border-t border-border md:block">
      <ul className={cn('mx-auto flex w-full gap-1 overflow-x-auto px-4 sm:px-6', maxWidth)}>
        {NAV_ITEMS.map(({ href, label, icon: Icon, tourId }) => {
          const active = isActive(href, location);
          return (
            <li key={href}>
              <Link
                href={href}
                data-tour={tourId}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex h-11 items-center gap-2 border-b-2 px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset',
                  active
                    ? 'border-violet-600 text-foreground dark:border-violet-400'
                    : 'border-transparent text-muted-foreground hover:border-border hover:text-foreground',
                )}
              >
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
