import { LogOut, ShieldCheck, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { cn } from '../../lib/utils';
import { useAuth, useLogout } from '../../lib/auth';
import { Button, buttonVariants } from '../ui/button';
import { Brand } from './brand';
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
  children: ReactNode;
}

const WIDTHS = { default: 'max-w-5xl', wide: 'max-w-7xl' } as const;

/** The frame of every signed-in page: header with the user, Sign out everywhere and Logout, then the page title. */
export function AppShell({ title, subtitle, actions, width = 'default', showAdminLink = true, children }: AppShellProps) {
  return (
    <div className="min-h-dvh bg-background">
      <AppHeader maxWidth={WIDTHS[width]} showAdminLink={showAdminLink} />
      <main className={cn('mx-auto w-full px-4 py-8 sm:px-6 sm:py-10', WIDTHS[width])}>
        <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
            {subtitle ? <p className="mt-1 text-muted-foreground">{subtitle}</p> : null}
          </div>
          {actions}
        </div>
        {children}
      </main>
    </div>
  );
}

function AppHeader({ maxWidth, showAdminLink }: { maxWidth: string; showAdminLink: boolean }) {
  const { user } = useAuth();
  const logout = useLogout();
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur">
      <div className={cn('mx-auto flex h-16 w-full items-center justify-between gap-3 px-4 sm:px-6', maxWidth)}>
        <Brand />
        <nav aria-label="Account" className="flex min-w-0 items-center gap-0.5 sm:gap-2">
          {user ? (
            <Link href="/account" className={cn(buttonVariants({ variant: 'ghost', size: 'sm' }), 'min-w-0 px-2 sm:px-3')}>
              <UserRound aria-hidden="true" />
              <span className="sr-only">Account: </span>
              <span className="hidden truncate sm:inline">{user.displayName}</span>
            </Link>
          ) : null}
          {showAdminLink && user?.isAdmin ? (
            <Link href="/admin" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              <ShieldCheck aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Admin Dashboard</span>
            </Link>
          ) : null}
          <SignOutEverywhereButton />
          <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut aria-hidden="true" /> Logout
          </Button>
        </nav>
      </div>
    </header>
  );
}
