import { Coins, Film, History, Home, Sparkles } from 'lucide-react';
import { Link, useLocation } from 'wouter';

import { cn } from '../../lib/utils';

/** Spec section 2: the generator's bottom navigation. */
const ITEMS = [
  { href: '/', label: 'Home', icon: Home },
  { href: '/generator', label: 'Create', icon: Sparkles },
  { href: '/media', label: 'Media', icon: Film },
  { href: '/credits', label: 'Credits', icon: Coins },
  { href: '/history', label: 'History', icon: History },
] as const;

export function BottomNav() {
  const [location] = useLocation();
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/90 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <ul className="mx-auto grid h-16 max-w-xl grid-cols-5">
        {ITEMS.map(({ href, label, icon: Icon }) => {
          const active = location === href;
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex h-full flex-col items-center justify-center gap-1 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  active ? 'text-violet-600 dark:text-violet-400' : 'text-muted-foreground hover:text-foreground',
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
