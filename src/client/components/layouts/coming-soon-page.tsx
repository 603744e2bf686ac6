import { Hourglass } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { AppShell } from './app-shell';

interface ComingSoonPageProps {
  title: string;
  description: string;
}

/** A signed-in page whose feature is not on this server yet: says so plainly. */
export function ComingSoonPage({ title, description }: ComingSoonPageProps) {
  return (
    <AppShell title={title}>
      <Card>
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-lg bg-muted text-primary">
            <Hourglass aria-hidden="true" className="size-5" />
          </div>
          <CardTitle>Coming soon on this server</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/dashboard" className={buttonVariants({ variant: 'outline' })}>
            Back to Dashboard
          </Link>
        </CardContent>
      </Card>
    </AppShell>
  );
}
