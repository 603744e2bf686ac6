import { CalendarDays, Coins, Film, LoaderCircle, type LucideIcon } from 'lucide-react';

import type { GenerationRecord } from '../../../../shared/generations';
import { formatCount } from '../../../../shared/money/price-list';
import { cn } from '../../../lib/utils';

export interface VideoSummary {
  total: number;
  /** Pending and processing: everything not finished yet. */
  processing: number;
  /** Created in the current calendar month of the viewer's clock. */
  thisMonth: number;
}

export function summarizeVideos(
  videos: readonly Pick<GenerationRecord, 'status' | 'createdAt'>[],
  now: Date = new Date(),
): VideoSummary {
  let processing = 0;
  let thisMonth = 0;
  for (const video of videos) {
    if (video.status === 'pending' || video.status === 'processing') processing += 1;
    const created = new Date(video.createdAt);
    if (created.getFullYear() === now.getFullYear() && created.getMonth() === now.getMonth()) thisMonth += 1;
  }
  return { total: videos.length, processing, thisMonth };
}

interface StatProps {
  label: string;
  /** undefined while loading. */
  value: string | undefined;
  icon: LucideIcon;
  /** Classes of the icon's chip. */
  accent: string;
  hint?: string;
}

function StatCard({ label, value, icon: Icon, accent, hint }: StatProps) {
  return (
    <div
      role="group"
      aria-label={label}
      className="grid min-w-0 gap-2 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="truncate text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg sm:size-9', accent)}>
          <Icon aria-hidden="true" className="size-4 sm:size-5" />
        </span>
      </div>
      {value === undefined ? (
        <span className="block h-8 w-14 animate-pulse rounded-md bg-muted">
          <span className="sr-only">Loading</span>
        </span>
      ) : (
        <p
          className="truncate text-xl leading-8 font-bold tracking-tight tabular-nums sm:text-2xl"
          title={hint ?? value}
        >
          {value}
        </p>
      )}
    </div>
  );
}

interface DashboardStatsProps {
  /** undefined while the list is loading. */
  videos: readonly GenerationRecord[] | undefined;
  /** '∞ Unlimited' or the number, as the page formats it; undefined while loading. */
  credits: string | undefined;
}

/** Screens (docs/product-rules.md): Total Videos, Available Credits, Processing and This Month. */
export function DashboardStats({ videos, credits }: DashboardStatsProps) {
  const summary = videos ? summarizeVideos(videos) : undefined;
  const count = (n: number | undefined) => (n === undefined ? undefined : formatCount(n));
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        label="Total Videos"
        value={count(summary?.total)}
        icon={Film}
        accent="bg-violet-500/15 text-violet-700 dark:text-violet-300"
      />
      <StatCard
        label="Available Credits"
        value={credits}
        icon={Coins}
        accent="bg-fuchsia-500/15 text-fuchsia-700 dark:text-fuchsia-300"
      />
      <StatCard
        label="Processing"
        value={count(summary?.processing)}
        icon={LoaderCircle}
        accent="bg-amber-500/15 text-amber-700 dark:text-amber-300"
        hint="Pending and processing videos"
      />
      <StatCard
        label="This Month"
        value={count(summary?.thisMonth)}
        icon={CalendarDays}
        accent="bg-emerald-500/15 text-emerald-700 dark:text-emerald-300"
      />
    </section>
  );
}
