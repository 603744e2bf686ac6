import { AlertTriangle, Clock, Hourglass, Play } from 'lucide-react';
import { useState } from 'react';

import type { AdminJobsOverview } from '../../../../shared/admin-jobs';
import { GENERATION_STATUSES, type GenerationStatus } from '../../../../shared/generations';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { type AdminJobsFilters, EMPTY_JOBS_FILTERS, JOBS_REFRESH_MS, useAdminJobs } from '../api/get-admin-jobs';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { JobList } from './job-list';

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** '45 s', '3 min', '2 h 5 min'. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The jobs console: the queue at a glance, what runs where, why jobs fail, and every job with its actions. */
export function JobsConsole() {
  const [filters, setFilters] = useState<AdminJobsFilters>(EMPTY_JOBS_FILTERS);
  const user = useDebouncedValue(filters.user, 300);
  const jobs = useAdminJobs({ ...filters, user });
  const data = jobs.data;
  return (
    <div className="space-y-6">
      <QueueTiles queue={data?.queue} />
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {jobs.isError
          ? `Could not refresh: ${jobs.error.message}`
          : `Refreshes every ${JOBS_REFRESH_MS / 1000} seconds.`}
      </p>
      <Card>
        <CardHeader>
          <CardTitle>Running now</CardTitle>
        </CardHeader>
        <CardContent>
          {data ? <JobList jobs={data.running} empty="No job is running." /> : <Spinner label="Loading jobs" />}
        </CardContent>
      </Card>
      {data && data.held.length > 0 ? (
        <Card className="border-amber-300/60 dark:border-amber-500/30">
          <CardHeader>
            <CardTitle>Held for review</CardTitle>
            <p className="text-sm text-muted-foreground">
              Screening flagged these descriptions. Each job waits until you approve it (it is made) or reject it (it
              fails as blocked by the content policy).
            </p>
          </CardHeader>
          <CardContent>
            <JobList jobs={data.held} empty="No job is held for review." />
          </CardContent>
        </Card>
      ) : null}
      <FailureGroups failures={data?.failures} />
      <Card>
        <CardHeader className="gap-4">
          <CardTitle>Jobs</CardTitle>
          <form role="search" className="grid gap-3 sm:grid-cols-3" onSubmit={(event) => event.preventDefault()}>
            <div className="grid gap-1.5">
              <Label htmlFor="jobs-user">User</Label>
              <Input
                id="jobs-user"
                type="search"
                placeholder="Part of an email"
                maxLength={200}
                value={filters.user}
                onChange={(event) => setFilters({ ...filters, user: event.target.value })}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="jobs-model">Model</Label>
              <select
                id="jobs-model"
                className={selectClass}
                value={filters.model}
                onChange={(event) => setFilters({ ...filters, model: event.target.value })}
              >
                <option value="">All models</option>
                {(data?.models ?? []).map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="jobs-status">Status</Label>
              <select
                id="jobs-status"
                className={selectClass}
                value={filters.status}
                onChange={(event) => setFilters({ ...filters, status: event.target.value as GenerationStatus | '' })}
              >
                <option value="">All statuses</option>
                {GENERATION_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </select>
            </div>
          </form>
        </CardHeader>
        <CardContent>
          {data ? <JobList jobs={data.jobs} empty="No job matches these filters." /> : <Spinner label="Loading jobs" />}
        </CardContent>
      </Card>
    </div>
  );
}

function QueueTiles({ queue }: { queue: AdminJobsOverview['queue'] | undefined }) {
  const tiles = [
    {
      label: 'Waiting',
      value: queue ? String(queue.pending) : '—',
      icon: Hourglass,
      tint: 'bg-amber-500/10 text-amber-600 dark:text-amber-300',
    },
    {
      label: 'Running',
      value: queue ? String(queue.processing) : '—',
      icon: Play,
      tint: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-300',
    },
    {
      label: 'Oldest wait',
      value: queue ? formatWait(queue.oldestWaitSeconds) : '—',
      icon: Clock,
      tint: 'bg-sky-500/10 text-sky-600 dark:text-sky-300',
    },
  ];
  return (
    <section aria-label="Queue" className="grid grid-cols-3 gap-3 sm:gap-4">
      {tiles.map(({ label, value, icon: Icon, tint }) => (
        <Card key={label} className="flex items-start justify-between gap-3 p-4 sm:p-5">
          <div className="min-w-0">
            <h2 className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</h2>
            <p className="mt-1 truncate text-xl font-bold tracking-tight tabular-nums sm:text-2xl">{value}</p>
          </div>
          <span className={cn('hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex', tint)}>
            <Icon aria-hidden="true" className="size-5" />
          </span>
        </Card>
      ))}
    </section>
  );
}

function FailureGroups({ failures }: { failures: AdminJobsOverview['failures'] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle aria-hidden="true" className="size-5 text-destructive" /> Failures in the last 24 hours
        </CardTitle>
      </CardHeader>
      <CardContent>
        {!failures ? (
          <Spinner label="Loading failures" />
        ) : failures.length === 0 ? (
          <p className="text-sm text-muted-foreground">No job failed in the last 24 hours.</p>
        ) : (
          <ul className="divide-y divide-border">
            {failures.map((group) => (
              <li key={`${group.model}:${group.reason}`} className="flex items-start gap-3 py-2 text-sm">
                <span className="w-10 shrink-0 text-right font-bold tabular-nums">{group.count}×</span>
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{group.model}</span>
                  <span className="block break-words text-muted-foreground">{group.reason || 'No reason given'}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
