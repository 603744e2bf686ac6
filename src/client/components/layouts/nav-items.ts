import { Coins, CalendarClock, Film, History, LayoutDashboard, type LucideIcon, Sparkles } from 'lucide-react';

export interface NavItem {
  href: string;
  label: string;
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
  { href: '/history', label: 'History', icon: History, tourId: 'nav-history' },
  { href: '/credits', label: 'Credits', icon: Coins, tourId: 'nav-credits' },
  { href: '/subscribe', label: 'Subscribe', icon: CalendarClock, tourId: 'nav-subscribe' },
];

/** The entry for the current path: the generator answers on '/' too, payments belong to Credits. */
export function isActive(href: string, location: string): boolean {
  if (href === '/generator') return location === '/' || location === '/generator';
  if (href === '/credits') return location === '/credits' || location.startsWith('/payment-');
  return location === href;
}
