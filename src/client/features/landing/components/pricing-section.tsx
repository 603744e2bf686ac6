import { Check } from 'lucide-react';
import { Link } from 'wouter';

import { buttonVariants } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
// The zod-free price list only: this section is part of the landing page's first load.
import {
  CREDIT_PACKAGES,
  CREDIT_PRICE_CENTS,
  type CreditPackage,
  formatCreditCount,
  formatPrice,
  VIDEO_COSTS,
} from '../../../../shared/money/price-list';

function PackageCard({ pack }: { pack: CreditPackage }) {
  return (
    <li
      className={cn(
        'relative flex flex-col rounded-xl border bg-card p-6 shadow-sm',
        pack.popular ? 'border-primary ring-2 ring-primary/30' : 'border-border',
      )}
    >
      {pack.popular ? (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-linear-to-r from-violet-600 to-fuchsia-600 px-3 py-0.5 text-xs font-semibold text-white">
          Most popular
        </span>
      ) : null}
      <p className="text-lg font-semibold">{pack.credits} credits</p>
      <p className="mt-2 text-3xl font-extrabold">{formatPrice(pack.priceCents)}</p>
      <p className="mt-1 text-sm text-muted-foreground">Up to {pack.credits} standard videos</p>
    </li>
  );
}

// The page is prerendered once for every server; the server marks <html data-payments="off"> where
// it takes no payments, and these variants show who to ask there instead of dollar prices (the
// markup is the same either way, so hydration matches).
const WITH_PAYMENTS = '[[data-payments=off]_&]:hidden';
const WITHOUT_PAYMENTS = 'hidden [[data-payments=off]_&]:block';

export function PricingSection() {
  return (
    <section aria-labelledby="pricing-title" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="pricing-title" className="text-center text-3xl font-bold tracking-tight">
        Simple pricing
      </h2>
      <p className={cn('mt-2 text-center text-muted-foreground', WITH_PAYMENTS)}>
        Credits cost {formatPrice(CREDIT_PRICE_CENTS)} each and never expire. Pay only for the videos you make.
      </p>
      <p
        data-testid="pricing-without-payments"
        className={cn('mt-2 text-center text-muted-foreground', WITHOUT_PAYMENTS)}
      >
        Videos are paid in credits, and credits never expire. This server does not sell credits: for more, ask the
        person who runs it.
      </p>
      <ul className={cn('mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4', WITH_PAYMENTS)}>
        {CREDIT_PACKAGES.map((pack) => (
          <PackageCard key={pack.credits} pack={pack} />
        ))}
      </ul>
      <div className="mx-auto mt-8 max-w-xl rounded-xl border border-border bg-card p-6 shadow-sm">
        <h3 className="font-semibold">Cost per video</h3>
        <ul className="mt-3 divide-y divide-border text-sm">
          {VIDEO_COSTS.map((cost) => (
            <li key={cost.label} className="flex items-center justify-between gap-4 py-2">
              <span className="flex items-center gap-2">
                <Check aria-hidden="true" className="size-4 text-primary" /> {cost.label}
              </span>
              <span className="font-semibold">{formatCreditCount(cost.credits)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-muted-foreground">Credits never expire.</p>
      </div>
      <div className="mt-8 text-center">
        <Link href="/register" className={buttonVariants({ variant: 'brand', size: 'lg' })}>
          Get started
        </Link>
      </div>
    </section>
  );
}
