import { Clapperboard, ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useAuth } from '../../lib/auth';

/** The Create Video screen, for now a placeholder while generation is set up on the server. */
export function GeneratorPage() {
  const { user } = useAuth();
  return (
    <AppShell title="Create Video" subtitle="Upload and describe">
      {user?.isAdmin ? (
        <div className="-mt-2 mb-6">
          <Link href="/admin" className={buttonVariants({ variant: 'outline' })}>
            <ShieldCheck aria-hidden="true" /> Admin Dashboard
          </Link>
        </div>
      ) : null}
      <Card>
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-lg bg-linear-to-br from-violet-600 to-fuchsia-600 text-white">
            <Clapperboard aria-hidden="true" className="size-5" />
          </div>
          <CardTitle>Video creation is being set up on this server</CardTitle>
          <CardDescription>
            Uploading media and generating videos will appear here soon. Meanwhile your account and credits are ready
            on the dashboard.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/dashboard" className={buttonVariants({ variant: 'brand' })}>
            Go to Dashboard
          </Link>
        </CardContent>
      </Card>
    </AppShell>
  );
}
