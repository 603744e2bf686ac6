import { ShieldCheck } from 'lucide-react';

import { DECISION_HOURS } from '../../../../shared/safety';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { SAFETY_REFRESH_MS, useSafetyOverview } from '../api/get-safety-overview';
import { useMinuteClock } from '../hooks/use-minute-clock';
import { SafetyFigures } from './safety-figures';
import { SafetyItemCard } from './safety-item-card';

/** The safety queue: the figures, then every open report, appeal and held job, oldest first, each with its clock. */
export function SafetyQueue() {
  const overview = useSafetyOverview();
  const now = useMinuteClock();
  const data = overview.data;
  return (
    <div className="space-y-6">
      <SafetyFigures stats={data?.stats} />
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {overview.isError
          ? `Could not refresh: ${overview.error.message}`
          : `Oldest first: each item is to be decided within ${DECISION_HOURS} hours. Refreshes every ${SAFETY_REFRESH_MS / 1000} seconds.`}
      </p>
      <section aria-label="Open items" className="space-y-4">
        {!data ? (
          overview.isError ? null : (
            <Spinner label="Loading the safety queue" />
          )
        ) : data.items.length === 0 ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-10 text-center">
            <ShieldCheck aria-hidden="true" className="size-8 text-emerald-600 dark:text-emerald-400" />
            <p className="text-sm text-muted-foreground">Nothing to decide. Reports and flagged videos appear here.</p>
          </Card>
        ) : (
          <ol className="space-y-4">
            {data.items.map((item) => (
              <li key={`${item.kind}:${item.id}`}>
                <SafetyItemCard item={item} now={now} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
