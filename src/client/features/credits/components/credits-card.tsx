import { CalendarClock, CircleCheck, Coins, Film, UserCog } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import type { UserStatus } from '../../../../shared/auth';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import { describeGenerationPayer, type GenerationPayer } from '../../../../shared/money/display';
import { ADD_ON_PRICES, type VideoPrice } from '../../../../shared/money/pricing';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { formatCredits } from '../api/get-user-status';

interface CreditsCardProps {
  status: UserStatus | undefined;
  /** This video's price (src/shared/money/pricing.ts), priced with its model's catalogue price. */
  price: VideoPrice;
  /** False until the model's price is known (the catalogue is loading or failed): the total only. */
  itemised: boolean;
  /** What pays for the next video; daily and extra generations go before credits. */
  payer?: GenerationPayer;
  /** The tour's 'Show Me How This Works' button, when the tour exists. */
  tourButton?: ReactNode;
  /** Whether this server takes payments; false turns 'Buy Credits' into 'ask the administrator' for someone who cannot pay. */
  paymentsEnabled?: boolean;
  /** Who to ask for credits on such a server (the payments feature's operator contact), said the same way as on the form. */
  whoToAsk?: ReactNode;
}

interface BreakdownLine {
  label: string;
  value: string;
  /** An add-on this video does not use: its price, muted. */
  unused?: boolean;
}

/**
 * The breakdown (decision 012): the model's base price, then audio, AI prompt enhancement and image
 * analysis with the amounts the server charges (each shown even when unused, so its price is known).
 */
function breakdownLines(price: VideoPrice, itemised: boolean): BreakdownLine[] {
  const total = toCredits(price.total);
  if (!itemised) return [{ label: 'Estimated cost', value: String(total) }];
  const addOns = ADD_ON_PRICES.map((addOn) =>
    price.parts[addOn.key] > 0
      ? { label: addOn.label, value: `+${addOn.credits}` }
      : { label: addOn.label, value: `+${addOn.credits} if used`, unused: true },
  );
  return [
    { label: 'Base video', value: String(toCredits(price.parts.baseVideo)) },
    ...addOns,
    { label: 'Total', value: String(total) },
  ];
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Screens (docs/product-rules.md): the balance badge, this video's cost, any shortfall, the breakdown and the ways
 * onward. A video paid by a daily or extra generation says so instead of counting a shortfall.
 */
export function CreditsCard({
  status,
  price,
  itemised,
  payer = { kind: 'credits' },
  tourButton,
  paymentsEnabled,
  whoToAsk,
}: CreditsCardProps) {
  const allowance = describeGenerationPayer(payer);
  const totalCost = toCredits(price.total);
  const shortfall = status && !status.isUnlimited && !allowance ? round(totalCost - status.availableCredits) : 0;
  // Nothing to pay with and nowhere to buy: the only way on is the administrator.
  const askAdministrator = paymentsEnabled === false && shortfall > 0;
  const breakdown = breakdownLines(price, itemised);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Credits</CardTitle>
        {status ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-linear-to-r from-violet-600 to-fuchsia-600 px-3 py-1 text-sm font-semibold text-white">
            {/* '∞ Unlimited' carries its own symbol: no icon beside it. */}
            {status.isUnlimited ? null : <Coins aria-hidden="true" className="size-4" />}
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
            {status?.isUnlimited ? 'Free' : allowance ? '1 generation' : formatCreditCount(totalCost)}
          </span>
        </div>
        {allowance ? (
          <p className="flex items-start gap-2 rounded-lg bg-emerald-500/10 px-3 py-2 text-sm font-medium text-emerald-700 dark:text-emerald-300">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {allowance}
          </p>
        ) : shortfall > 0 ? (
          <p className="rounded-lg bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive">
            Need {shortfall} more
          </p>
        ) : null}
        <div className="grid gap-1.5 rounded-lg bg-muted/60 p-3 text-sm">
          {status?.isUnlimited || allowance ? (
            <p className="text-xs text-muted-foreground">Price in credits, not charged to you</p>
          ) : null}
          <dl className="grid gap-1.5" aria-label="Cost breakdown">
            {breakdown.map((line) => (
              <div
                key={line.label}
                className={cn('flex justify-between gap-3', line.label === 'Total' && 'border-t border-border pt-1.5')}
              >
                <dt className="text-muted-foreground">{line.label}</dt>
                <dd className={line.unused ? 'text-xs text-muted-foreground tabular-nums' : 'font-medium tabular-nums'}>
                  {line.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        {askAdministrator ? (
          <p
            className="flex items-start gap-2 rounded-lg bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200"
            data-testid="ask-administrator"
          >
            <UserCog aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>This server does not take payments. {whoToAsk}</span>
          </p>
        ) : null}
        <div className={cn('grid gap-2', status?.isUnlimited || askAdministrator ? 'grid-cols-1' : 'grid-cols-2')}>
          {/* An unlimited account never needs credits, and a server without payments sells none. */}
          {status?.isUnlimited || askAdministrator ? null : (
            <Link href="/credits" className={cn(buttonVariants({ variant: 'brand' }), 'w-full')}>
              <Coins aria-hidden="true" /> Buy Credits
            </Link>
          )}
          <Link href="/media" className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}>
            <Film aria-hidden="true" /> Media
          </Link>
        </div>
        <Link
          href="/subscribe"
          className="inline-flex min-h-6 items-center justify-center gap-1.5 rounded-md text-sm font-medium text-violet-700 underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none dark:text-violet-300"
        >
          <CalendarClock aria-hidden="true" className="size-4" /> Daily generations and extra packs
        </Link>
        {tourButton}
      </CardContent>
    </Card>
  );
}
