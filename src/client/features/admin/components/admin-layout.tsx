import { LayoutDashboard, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { Brand } from '../../../components/layouts/brand';
import { Button, buttonVariants } from '../../../components/ui/button';
import { useAuth, useLogout } from '../../../lib/auth';

/** The admin frame: wider than the other signed-in screens, to give the users table room. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const logout = useLogout();
  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur">
        <div className="mx-auto flex h-16 w-full max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <Brand />
          <nav aria-label="Account" className="flex min-w-0 items-center gap-2">
            {user ? (
              <span className="hidden truncate text-sm text-muted-foreground sm:inline">{user.displayName}</span>
            ) : null}
            <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut aria-hidden="true" /> Logout
            </Button>
          </nav>
        </div>
      </header>
      <main className="mx-auto w-full max-w-7xl space-y-6 px-4 py-8 sm:px-6 sm:py-10">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Admin Dashboard</h1>
            <p className="mt-1 text-muted-foreground">Manage users, credits and subscriptions</p>
          </div>
          <Link href="/dashboard" className={buttonVariants({ variant: 'outline', className: 'self-start sm:self-auto' })}>
            <LayoutDashboard aria-hidden="true" /> Go to Main App
          </Link>
        </div>
        {children}
      </main>
    </div>
  );
}
