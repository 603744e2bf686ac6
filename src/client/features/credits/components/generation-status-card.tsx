import { CalendarClock, CircleCheck, CircleOff, Gauge } from 'lucide-react';
import { useEffect, useState } from 'react';

import { type GenerationStatus, nextGenerationReset } from '../../../../shared/money/plans';
import { subscriptionBadgeText } from '../../../../shared/money/display';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardHeaderRow } from '../../../components/ui/card';
import { Progress } from '../../../components/ui/progress';
import { Spinner } from '../../../components/ui/spinner';

const resetFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

const STATUS_TONES: Record<string, 'success' | 'brand' | 'neutral'> = {
  active: 'success',
  trial: 'brand',
  premium_unlimited: 'brand',
};

/** The next 3am New York reset in the viewer's own clock, refreshed every minute. */
function useNextReset(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return nextGenerationReset(now);
}

interface GenerationStatusCardProps {
  status: GenerationStatus | undefined;
  isError: boolean;
}

/** Screens (docs/product-rules.md), /subscribe: daily and extra generations, the subscription and whether the user can generate. */
export function GenerationStatusCard({ status, isError }: GenerationStatusCardProps) {
  const nextReset = useNextReset();
  return (
    <Card>
      <CardHeaderRow icon={<Gauge aria-hidden="true" />} title="Generation Status">
        {status ? (
          <Badge tone={status.canGenerate ? 'success' : 'danger'}>
            {status.canGenerate ? <CircleCheck aria-hidden="true" /> : <CircleOff aria-hidden="true" />}
            {status.canGenerate ? 'Can Generate' : 'No Generations'}
          </Badge>
        ) : null}
      </CardHeaderRow>
      <CardContent>
        {status ? (
          <div className="grid gap-4">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <div className="grid gap-2 rounded-lg bg-muted/60 p-3">
                <dt className="text-xs font-medium text-muted-foreground">Daily generations</dt>
                <dd className="text-xl font-bold tabular-nums">
                  {status.dailyUsed}/{status.dailyLimit}
                </dd>
                <dd>
                  <Progress
                    value={status.dailyLimit > 0 ? (status.dailyUsed / status.dailyLimit) * 100 : 0}
                    label="Daily generations used"
                  />
                </dd>
              </div>
              <div className="grid content-start gap-2 rounded-lg bg-muted/60 p-3">
                <dt className="text-xs font-medium text-muted-foreground">Extra generations</dt>
                <dd className="text-xl font-bold tabular-nums">{status.extraRemaining}</dd>
              </div>
              <div className="col-span-2 grid content-start gap-2 rounded-lg bg-muted/60 p-3 sm:col-span-1">
                <dt className="text-xs font-medium text-muted-foreground">Subscription</dt>
                <dd>
                  <Badge tone={STATUS_TONES[status.subscriptionStatus] ?? 'neutral'}>
                    {subscriptionBadgeText(status.subscriptionStatus)}
                  </Badge>
                </dd>
              </div>
            </dl>
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
              Daily generations reset at 3am EST (next: {resetFormat.format(nextReset)}).
            </p>
          </div>
        ) : isError ? (
          <p className="text-sm text-muted-foreground">Your generation status is unavailable right now.</p>
        ) : (
          <Spinner label="Loading generation status" />
        )}
      </CardContent>
    </Card>
  );
}
