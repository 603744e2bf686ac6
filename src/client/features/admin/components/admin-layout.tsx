import { LayoutDashboard } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { AppShell } from '../../../components/layouts/app-shell';
import { buttonVariants } from '../../../components/ui/button';

/** The admin frame: the signed-in shell, wider to give the users table room. */
export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <AppShell
      title="Admin Dashboard"
      subtitle="Manage users, credits and subscriptions"
      width="wide"
      showAdminLink={false}
      actions={
        <Link
          href="/dashboard"
          className={buttonVariants({ variant: 'outline', className: 'self-start sm:self-auto' })}
        >
          <LayoutDashboard aria-hidden="true" /> Go to Main App
        </Link>
      }
    >
      <div className="space-y-6">{children}</div>
    </AppShell>
  );
}
