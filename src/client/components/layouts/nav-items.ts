import {
  Coins,
  CalendarClock,
  Film,
  History,
  LayoutDashboard,
  LayoutList,
  type LucideIcon,
  Sparkles,
} from 'lucide-react';

export interface NavItem {
  href: string;
  label: string;
  /** A shorter label for the phone's bottom bar, where seven entries share 390 px. */
  short?: string;
  icon: LucideIcon;
  /** Tours point at entries by this (features/onboarding). */
  tourId: string;
}

/**
 * The one navigation of the signed-in screens (bottom bar on phones, header on desktops). '/' is
 * not an entry: for a signed-in person it is the generator, which Create already opens.
 */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, tourId: 'nav-dashboard' },
  { href: '/generator', label: 'Create', icon: Sparkles, tourId: 'nav-create' },
  { href: '/media', label: 'Media', icon: Film, tourId: 'nav-media' },
  { href: '/storyboards', label: 'Storyboards', short: 'Boards', icon: LayoutList, tourId: 'nav-storyboards' },
  { href: '/history', label: 'History', icon: History, tourId: 'nav-history' },
  { href: '/credits', label: 'Credits', icon: Coins, tourId: 'nav-credits' },
  { href: '/subscribe', label: 'Subscribe', icon: CalendarClock, tourId: 'nav-subscribe' },
];

/** The entry for the current path: the generator answers on '/' too, payments belong to Credits. */
export function isActive(href: string, location: string): boolean {
  if (href === '/generator') return location === '/' || location === '/generator';
  if (href === '/credits') return location === '/credits' || location.startsWith('/payment-');
  if (href === '/storyboards') return location === '/storyboards' || location.startsWith('/storyboards/');
  return location === href;
}
