import { Link, useLocation } from 'wouter';

import { cn } from '../../lib/utils';
import { isActive, NAV_ITEMS } from './nav-items';

/** The signed-in navigation on phones: a bar at the bottom, in thumb reach (hidden from md up). */
export function BottomNav() {
  const [location] = useLocation();
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="mx-auto grid h-16 max-w-xl grid-cols-6">
        {NAV_ITEMS.map(({ href, label, icon: Icon, tourId }) => {
          const active = isActive(href, location);
          return (
            <li key={href}>
              <Link
                href={href}
                data-tour={tourId}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex h-full flex-col items-center justify-center gap-1 text-[0.6875rem] font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset',
                  active ? 'text-violet-700 dark:text-violet-300' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                <Icon aria-hidden="true" className="size-5" />
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
