import { CheckCircle2, Clock, Inbox, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { REPORT_REASON_LABELS, REPORT_REASONS, type SafetyOverview } from '../../../../shared/safety';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { formatNumber } from '../format';

type SafetyStats = SafetyOverview['stats'];

/** '5 h', '0.4 h'. */
export function formatDecisionHours(hours: number): string {
  return `${formatNumber(hours < 10 ? Math.round(hours * 10) / 10 : Math.round(hours))} h`;
}

const TILES: ReadonlyArray<{
  label: string;
  value: (stats: SafetyStats) => ReactNode;
  icon: LucideIcon;
  tint: string;
}> = [
  {
    label: 'Open',
    value: (stats) => formatNumber(stats.open),
    icon: Inbox,
    tint: 'bg-amber-500/10 text-amber-600 dark:text-amber-300',
  },
  {
    label: 'Decided',
    value: (stats) => formatNumber(stats.decided),
    icon: CheckCircle2,
    tint: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-300',
  },
  {
    label: 'Median time to decision',
    // Words, not a figure, before the first decision: smaller, so they fit a phone's third of a row.
    value: (stats) =>
      stats.medianDecisionHours === null ? (
        <span className="text-base font-semibold text-muted-foreground">none yet</span>
      ) : (
        formatDecisionHours(stats.medianDecisionHours)
      ),
    icon: Clock,
    tint: 'bg-sky-500/10 text-sky-600 dark:text-sky-300',
  },
];

/** The queue's figures: open items, decided, the median time to decide, and reports per reason (all time). */
export function SafetyFigures({ stats }: { stats: SafetyStats | undefined }) {
  return (
    <section aria-label="Figures" className="grid gap-3 sm:gap-4">
      <div className="grid grid-cols-3 gap-3 sm:gap-4">
        {TILES.map(({ label, value, icon: Icon, tint }) => (
          <Card key={label} className="flex items-start justify-between gap-3 p-4 sm:p-5">
            <div className="min-w-0">
              <h2 className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</h2>
              <p className="mt-1 text-xl font-bold tracking-tight tabular-nums sm:text-2xl">
                {stats ? value(stats) : <span className="text-muted-foreground">—</span>}
              </p>
            </div>
            <span className={cn('hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex', tint)}>
              <Icon aria-hidden="true" className="size-5" />
            </span>
          </Card>
        ))}
      </div>
      <Card className="p-4 sm:p-5">
        <h2 className="text-xs font-medium text-muted-foreground sm:text-sm">Reports per reason</h2>
        <ul className="mt-2 grid gap-x-8 gap-y-1 text-sm md:grid-cols-2 xl:grid-cols-3">
          {REPORT_REASONS.map((reason) => (
            <li key={reason} className="flex items-baseline justify-between gap-3">
              <span className="min-w-0">{REPORT_REASON_LABELS[reason]}</span>
              <span className="font-semibold tabular-nums">
                {stats ? formatNumber(stats.byReason.find((row) => row.reason === reason)?.count ?? 0) : '—'}
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
