import { Link, useLocation } from 'wouter';

import { cn } from '../../lib/utils';
import { isActive, NAV_ITEMS } from './nav-items';

const FOCUS_RING = 'focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset';

/** How each navigation draws its entries: tabs under the header, or the phone's bottom bar. */
const VARIANTS = {
  tabs: {
    link: 'inline-flex h-11 items-center gap-2 border-b-2 px-3 text-sm font-medium transition-colors',
    active: 'border-violet-600 text-foreground dark:border-violet-400',
    inactive: 'border-transparent text-muted-foreground hover:border-border hover:text-foreground',
    icon: 'size-4',
  },
  bar: {
    link: 'flex h-full flex-col items-center justify-center gap-1 text-[0.625rem] font-medium transition-colors min-[400px]:text-[0.6875rem]',
    active: 'text-violet-700 dark:text-violet-300',
    inactive: 'text-muted-foreground hover:text-foreground',
    icon: 'size-5',
  },
} as const;

/** The entries of NAV_ITEMS as a list of links, the current one marked with aria-current. */
export function NavLinks({ variant, className }: { variant: keyof typeof VARIANTS; className: string }) {
  const [location] = useLocation();
  const styles = VARIANTS[variant];
  return (
    <ul className={className}>
      {NAV_ITEMS.map(({ href, label, short, icon: Icon, tourId }) => {
        const active = isActive(href, location);
        return (
          <li key={href}>
            <Link
              href={href}
              data-tour={tourId}
              aria-current={active ? 'page' : undefined}
              className={cn(styles.link, FOCUS_RING, active ? styles.active : styles.inactive)}
            >
              <Icon aria-hidden="true" className={styles.icon} />
              {variant === 'bar' ? (short ?? label) : label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
