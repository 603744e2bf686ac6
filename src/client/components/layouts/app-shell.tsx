import { CircleUserRound, LogOut, ShieldCheck } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'wouter';

import { cn } from '../../lib/utils';
import { useAuth, useLogout } from '../../lib/auth';
import { Button, buttonVariants } from '../ui/button';
import { BottomNav } from './bottom-nav';
import { Brand } from './brand';
import { MainNav } from './main-nav';
import { SignOutEverywhereButton } from './sign-out-everywhere-button';

interface AppShellProps {
  title: string;
  subtitle?: string;
  /** Buttons beside the title. */
  actions?: ReactNode;
  /** 'wide' gives tables room (the admin screen). */
  width?: 'default' | 'wide';
  /** The header's Admin Dashboard link; off on the admin screen itself. */
  showAdminLink?: boolean;
  /** The header's Logout; off where the page has its own Log Out beside the title (/credits, as the spec asks). */
  headerLogout?: boolean;
  children: ReactNode;
}

const WIDTHS = { default: 'max-w-5xl', wide: 'max-w-7xl' } as const;

// The first page of a visit keeps the browser's focus; every later page is reached by navigation.
let firstPageShown = false;

/** After a client-side navigation focus moves to the new page's heading, so screen readers announce it. */
function usePageHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!firstPageShown) {
      firstPageShown = true;
      return;
    }
    heading.current?.focus({ preventScroll: true });
  }, []);
  return heading;
}

/**
 * The frame of every signed-in page: header with the user's account, Sign out everywhere and Logout,
 * the main navigation (tabs under the header on desktops, a bottom bar on phones), then the page title.
 */
export function AppShell({
  title,
  subtitle,
  actions,
  width = 'default',
  showAdminLink = true,
  headerLogout = true,
  children,
}: AppShellProps) {
  const heading = usePageHeadingFocus();
  return (
    <div className="min-h-dvh bg-background pb-[calc(4rem+env(safe-area-inset-bottom))] md:pb-0">
      <AppHeader maxWidth={WIDTHS[width]} showAdminLink={showAdminLink} headerLogout={headerLogout} />
      <main className={cn('mx-auto w-full px-4 py-5 sm:px-6 sm:py-10', WIDTHS[width])}>
        <div className="mb-5 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight outline-none sm:text-3xl">
              {title}
            </h1>
            {subtitle ? <p className="mt-1 text-muted-foreground">{subtitle}</p> : null}
          </div>
          {actions}
        </div>
        {children}
      </main>
      <BottomNav />
    </div>
  );
}

function AppHeader({
  maxWidth,
  showAdminLink,
  headerLogout,
}: {
  maxWidth: string;
  showAdminLink: boolean;
  headerLogout: boolean;
}) {
  const { user } = useAuth();
  const logout = useLogout();
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur">
      <div className={cn('mx-auto flex h-16 w-full items-center justify-between gap-3 px-4 sm:px-6', maxWidth)}>
        <Brand compactOnPhones />
        <nav aria-label="Account" className="flex min-w-0 items-center gap-1 sm:gap-2">
          {user ? (
            <Link
              href="/account"
              className={cn(
                buttonVariants({ variant: 'ghost', size: 'sm' }),
                'min-w-0 text-muted-foreground hover:text-foreground',
              )}
            >
              <CircleUserRound aria-hidden="true" />
              <span className="sr-only">Account</span>
              <span aria-hidden="true" className="hidden max-w-40 truncate lg:inline">
                {user.displayName}
              </span>
            </Link>
          ) : null}
          {showAdminLink && user?.isAdmin ? (
            <Link href="/admin" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              <ShieldCheck aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Admin Dashboard</span>
            </Link>
          ) : null}
          <SignOutEverywhereButton />
          {headerLogout ? (
            <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut aria-hidden="true" /> Logout
            </Button>
          ) : null}
        </nav>
      </div>
      <MainNav maxWidth={maxWidth} />
    </header>
  );
}
