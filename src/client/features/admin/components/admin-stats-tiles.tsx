import { CalendarClock, Coins, type LucideIcon, Users, Zap } from 'lucide-react';

import type { AdminStats } from '../../../../shared/admin';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { useAdminStats } from '../api/get-admin-stats';
import { formatNumber } from '../format';

const TILES: ReadonlyArray<{ key: keyof AdminStats; label: string; icon: LucideIcon; tint: string }> = [
  {
    key: 'totalUsers',
    label: 'Total Users',
    icon: Users,
    tint: 'bg-violet-500/10 text-violet-600 dark:text-violet-300',
  },
  {
    key: 'activeCredits',
    label: 'Active Credits',
    icon: Coins,
    tint: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-300',
  },
  { key: 'creditsUsed', label: 'Credits Used', icon: Zap, tint: 'bg-amber-500/10 text-amber-600 dark:text-amber-300' },
  {
    key: 'creditsLast30Days',
    label: 'Credits Last 30 Days',
    icon: CalendarClock,
    tint: 'bg-sky-500/10 text-sky-600 dark:text-sky-300',
  },
];

/** The four figures over all users (not only the rows loaded in the table). */
export function AdminStatsTiles() {
  const stats = useAdminStats();
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {TILES.map(({ key, label, icon: Icon, tint }) => (
        <Card key={key} className="flex items-start justify-between gap-3 p-4 sm:p-5">
          <div className="min-w-0">
            <h2 className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</h2>
            <p className="mt-1 truncate text-xl font-bold tracking-tight tabular-nums sm:text-2xl">
              {stats.data ? (
                formatNumber(stats.data[key])
              ) : (
                <span className={cn('text-muted-foreground', stats.isPending && 'animate-pulse')}>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">{stats.isError ? 'Unavailable' : 'Loading'}</span>
                </span>
              )}
            </p>
          </div>
          <span className={cn('hidden size-9 shrink-0 items-center justify-center rounded-lg min-[400px]:flex', tint)}>
            <Icon aria-hidden="true" className="size-5" />
          </span>
        </Card>
      ))}
    </section>
  );
}
