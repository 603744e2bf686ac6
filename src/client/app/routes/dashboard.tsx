import { Clock, Coins, Film, Sparkles } from 'lucide-react';
import { Link } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { CreditBalance } from '../../features/credits/components/credit-balance';
import { useAuth } from '../../lib/auth';
import { cn } from '../../lib/utils';

const QUICK_LINKS = [
  { href: '/generator', label: 'Create Video', icon: Sparkles, variant: 'brand' },
  { href: '/credits', label: 'Buy Credits', icon: Coins, variant: 'outline' },
  { href: '/media', label: 'My Videos', icon: Film, variant: 'outline' },
] as const;

export function DashboardPage() {
  const { user, isAuthenticated } = useAuth();
  return (
    <AppShell title="Video Dashboard">
      <Card>
        <CardHeader>
          <CardTitle>Welcome{user ? `, ${user.displayName}` : ''}</CardTitle>
          <CardDescription>Your available credits</CardDescription>
          <div className="mt-2">
            <CreditBalance enabled={isAuthenticated} refetchInterval={30_000} />
          </div>
        </CardHeader>
        <CardContent className="space-y-5">
          <nav aria-label="Quick links" className="grid gap-2 sm:grid-cols-3">
            {QUICK_LINKS.map(({ href, label, icon: Icon, variant }) => (
              <Link key={href} href={href} className={cn(buttonVariants({ variant }), 'w-full')}>
                <Icon aria-hidden="true" /> {label}
              </Link>
            ))}
          </nav>
          <p className="flex items-start gap-2 rounded-lg bg-warning p-3 text-sm text-warning-foreground">
            <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            Videos are stored for 24 hours and then deleted automatically. Download the ones you want to keep.
          </p>
        </CardContent>
      </Card>
    </AppShell>
  );
}
