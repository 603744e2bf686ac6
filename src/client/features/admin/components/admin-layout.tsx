import { CircleDollarSign, LayoutDashboard, ListChecks, Settings, ShieldAlert, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { DECISION_HOURS } from '../../../../shared/safety';
import { AppShell } from '../../../components/layouts/app-shell';
import { buttonVariants } from '../../../components/ui/button';

const PAGES = {
  users: { title: 'Admin Dashboard', subtitle: 'Manage users, credits and subscriptions' },
  jobs: { title: 'Jobs Console', subtitle: 'The queue, running jobs, failures and what to do about them' },
  costs: { title: 'Costs', subtitle: 'What providers cost against what users paid, per day and model' },
  safety: { title: 'Safety', subtitle: `Reports and flagged videos, decided within ${DECISION_HOURS} hours` },
  settings: { title: 'Settings', subtitle: 'Connect video models and AI services: no restart needed' },
};

/** The admin pages, each linked from the others. */
const LINKS = [
  { page: 'users', href: '/admin', label: 'Users', Icon: Users },
  { page: 'jobs', href: '/admin/jobs', label: 'Jobs Console', Icon: ListChecks },
  { page: 'costs', href: '/admin/costs', label: 'Costs', Icon: CircleDollarSign },
  { page: 'safety', href: '/admin/safety', label: 'Safety', Icon: ShieldAlert },
  { page: 'settings', href: '/admin/settings', label: 'Settings', Icon: Settings },
] as const;

/** The admin frame: the signed-in shell, wider to give the users table room; each admin page links to the others. */
export function AdminLayout({ children, page = 'users' }: { children: ReactNode; page?: keyof typeof PAGES }) {
  return (
    <AppShell
      title={PAGES[page].title}
      subtitle={PAGES[page].subtitle}
      width="wide"
      showAdminLink={false}
      actions={
        <div className="flex flex-wrap gap-2 self-start sm:self-auto">
          {LINKS.filter((link) => link.page !== page).map(({ href, label, Icon }) => (
            <Link key={href} href={href} className={buttonVariants({ variant: 'outline' })}>
              <Icon aria-hidden="true" /> {label}
            </Link>
          ))}
          <Link href="/dashboard" className={buttonVariants({ variant: 'outline' })}>
            <LayoutDashboard aria-hidden="true" /> Go to Main App
          </Link>
        </div>
      }
    >
      <div className="space-y-6">{children}</div>
    </AppShell>
  );
}
