import { ShieldX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { Brand } from '../../../components/layouts/brand';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useAdminAccess } from '../hooks/use-admin-access';

/** Shows its children only once the server has accepted the users call. */
export function AdminAccessGate({ children }: { children: ReactNode }) {
  const access = useAdminAccess();
  if (access === 'allowed') return children;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 bg-background px-4 py-10">
      <Brand />
      {access === 'checking' ? <CheckingAccess /> : <AccessDenied />}
    </main>
  );
}

function CheckingAccess() {
  return (
    <div className="flex flex-col items-center gap-3 text-muted-foreground">
      <Spinner label="Checking Access..." />
      <p aria-hidden="true" className="text-sm font-medium">
        Checking Access...
      </p>
    </div>
  );
}

function AccessDenied() {
  return (
    <Card className="w-full max-w-sm text-center">
      <CardContent className="flex flex-col items-center gap-4 pt-6">
        <span className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <ShieldX aria-hidden="true" className="size-6" />
        </span>
        <h1 className="text-xl font-bold">Access Denied</h1>
        <p className="text-sm text-muted-foreground">You do not have administrator privileges to access this page</p>
        <Link href="/dashboard" className={buttonVariants({ variant: 'outline', className: 'w-full' })}>
          Back to Dashboard
        </Link>
      </CardContent>
    </Card>
  );
}
