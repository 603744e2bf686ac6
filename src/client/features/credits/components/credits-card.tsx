import { Coins, Film, Infinity as InfinityIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import type { UserStatus } from '../../../../shared/auth';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import type { ShownEstimate } from '../api/estimate-cost';
import { formatCredits } from '../api/get-user-status';

interface CreditsCardProps {
  status: UserStatus | undefined;
  cost: ShownEstimate;
  /** The tour's 'Show Me How This Works' button, when the tour exists. */
  tourButton?: ReactNode;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Spec section 2: the balance badge, this video's cost, any shortfall, the breakdown and the ways onward. */
export function CreditsCard({ status, cost, tourButton }: CreditsCardProps) {
  const shortfall = status && !status.isUnlimited ? round(cost.totalCost - status.availableCredits) : 0;
  const breakdown = cost.estimate
    ? [
        ['Base video', cost.estimate.baseVideo],
        ['AI enhancements', cost.estimate.breakdown.aiEnhancements.total],
        ['Model', cost.estimate.modelPremium],
        ['Plan discount', -cost.estimate.planDiscount],
      ].filter(([, value], index) => index === 0 || value !== 0)
    : [['Estimated cost', cost.totalCost]];
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Credits</CardTitle>
        {status ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-linear-to-r from-violet-600 to-fuchsia-600 px-3 py-1 text-sm font-semibold text-white">
            {status.isUnlimited ? <InfinityIcon aria-hidden="true" className="size-4" /> : <Coins aria-hidden="true" className="size-4" />}
            {status.isUnlimited ? '∞ Unlimited' : formatCredits(status)}
          </span>
        ) : (
          <Spinner label="Loading credits" className="[&_svg]:size-5" />
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-baseline justify-between gap-3">
          <span className="text-sm text-muted-foreground">This video costs</span>
          <span className="text-2xl font-bold tabular-nums" data-testid="video-cost">
            {status?.isUnlimited ? 'Free' : `${cost.totalCost} ${cost.totalCost === 1 ? 'credit' : 'credits'}`}
          </span>
        </div>
        {shortfall > 0 ? (
          <p className="rounded-lg bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">Need {shortfall} more</p>
        ) : null}
        <dl className="grid gap-1.5 rounded-lg bg-muted/60 p-3 text-sm" aria-label="Cost breakdown">
          {breakdown.map(([label, value]) => (
            <div key={String(label)} className="flex justify-between gap-3">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="grid grid-cols-2 gap-2">
          <Link href="/credits" className={cn(buttonVariants({ variant: 'brand' }), 'w-full')}>
            <Coins aria-hidden="true" /> Buy Credits
          </Link>
          <Link href="/media" className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}>
            <Film aria-hidden="true" /> Media
          </Link>
        </div>
        {tourButton}
      </CardContent>
    </Card>
  );
}
