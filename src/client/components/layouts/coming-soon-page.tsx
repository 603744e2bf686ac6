import { Hourglass } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../ui/button';
import { AppShell } from './app-shell';
import { NoticeCard } from './notice-card';

interface ComingSoonPageProps {
  title: string;
  description: string;
}

/** A signed-in page whose feature is not on this server yet: says so plainly. */
export function ComingSoonPage({ title, description }: ComingSoonPageProps) {
  return (
    <AppShell title={title}>
      <NoticeCard
        icon={<Hourglass aria-hidden="true" />}
        title="Coming soon on this server"
        description={description}
        action={
          <Link href="/dashboard" className={buttonVariants({ variant: 'outline' })}>
            Back to Dashboard
          </Link>
        }
      />
    </AppShell>
  );
}
