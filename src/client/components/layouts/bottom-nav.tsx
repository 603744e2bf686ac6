import { NavLinks } from './nav-links';

/** The signed-in navigation on phones: a bar at the bottom, in thumb reach (hidden from md up). */
export function BottomNav() {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <NavLinks variant="bar" className="mx-auto grid h-16 max-w-xl grid-cols-7" />
    </nav>
  );
}
