import { ArrowRight, CalendarClock, Coins, Infinity as InfinityIcon, LogOut, MousePointerClick } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { DAILY_GENERATION_LIMIT, SUBSCRIPTION_INTRO_PRICE_CENTS } from '../../../shared/money/plans';
import { formatCreditCount } from '../../../shared/money/credits';
import { formatPrice } from '../../../shared/money/display';
import { VIDEO_COSTS } from '../../../shared/money/pricing';
import { AppShell } from '../../components/layouts/app-shell';
import { BackLink } from '../../components/layouts/back-link';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardHeaderRow, CardTitle } from '../../components/ui/card';
import { CreditBalance } from '../../features/credits/components/credit-balance';
import { useUserStatus } from '../../features/credits/api/get-user-status';
import { NoticeCard } from '../../components/layouts/notice-card';
import { publishableKeyOf, usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { CreditPackagePicker } from '../../features/payments/components/credit-package-picker';
import { CreditsPurchasePanel } from '../../features/payments/components/credits-purchase-panel';
import { SecurePaymentsNote } from '../../features/payments/components/payment-page-parts';
import { PaymentUnavailableCard } from '../../features/payments/components/payment-notices';
import { useAuth, useLogout } from '../../lib/auth';

/**
 * The credits page (docs/product-rules.md, Screens): the balance and the four packages; choosing one reveals the
 * purchase panel. On a server without Stripe keys the packages stay visible but cannot be bought.
 */
export function CreditsPage() {
  const { isAuthenticated } = useAuth();
  const config = usePaymentsConfig();
  const [selected, setSelected] = useState<number | null>(null);
  // Until the config is known the way to /payment-checkout stays open: that page checks again.
  const canPay = config.data ? publishableKeyOf(config.data) !== null : true;
  // An unlimited account has nothing to buy here: it is told so, and offered no purchase.
  const unlimited = useUserStatus({ enabled: isAuthenticated }).data?.isUnlimited === true;

  return (
    <AppShell
      title="Buy Credits"
      subtitle={canPay ? '$1 per credit. Credits never expire.' : 'Credits never expire.'}
      actions={<CreditsLinks />}
      headerLogout={false}
    >
      {/* Phones: balance, packages, then the purchase panel; desktops: packages left, the rest right. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_25rem] lg:items-start">
        <div className="lg:col-start-2 lg:row-start-1">
          <BalanceCard enabled={isAuthenticated} />
        </div>
        <div className="grid gap-6 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {unlimited ? (
            <NoticeCard
              icon={<InfinityIcon aria-hidden="true" />}
              tone="brand"
              title="Your account is unlimited"
              description="Your videos cost you nothing, so there are no credits to buy. The packages are shown for reference."
            />
          ) : canPay ? null : (
            <PaymentUnavailableCard showBackToCredits={false} />
          )}
          <section aria-labelledby="packages-heading" className="grid gap-4">
            <h2 id="packages-heading" className="text-lg font-semibold">
              {canPay ? 'Choose a package' : 'Credit packages'}
            </h2>
            <CreditPackagePicker
              selected={selected}
              onSelect={setSelected}
              informationOnly={!canPay || unlimited}
              withPrices={canPay}
            />
          </section>
        </div>
        <aside aria-label="Purchase" className="grid gap-6 lg:col-start-2 lg:row-start-2">
          {/* Without payments the packages are information only: no purchase panel, no word of Stripe. */}
          {!canPay || unlimited ? null : selected === null ? (
            <ChooseHint />
          ) : (
            <CreditsPurchasePanel key={selected} credits={selected} canPay={canPay} />
          )}
          <DailyGenerationsCard withPrices={canPay} />
          {canPay ? <SecurePaymentsNote /> : null}
        </aside>
      </div>
    </AppShell>
  );
}

/** Screens (docs/product-rules.md): a Back link to /generator and a Log Out button. */
function CreditsLinks() {
  const logout = useLogout();
  return (
    <nav aria-label="Credits links" className="flex flex-wrap gap-2">
      <BackLink href="/generator">Back to Generator</BackLink>
      <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
        <LogOut aria-hidden="true" /> Log Out
      </Button>
    </nav>
  );
}

const [economy, standard, withAudio] = VIDEO_COSTS;
/** 'A standard video costs 1 credit, one with audio 3 credits, an economy video 0.5 credits.' */
const costSentence = `A standard video costs ${formatCreditCount(standard.credits)}, one with audio ${formatCreditCount(withAudio.credits)}, an economy video ${formatCreditCount(economy.credits)}.`;

function BalanceCard({ enabled }: { enabled: boolean }) {
  return (
    <Card>
      <CardHeaderRow icon={<Coins aria-hidden="true" />} title="Current Credits">
        <CreditBalance enabled={enabled} />
      </CardHeaderRow>
      <CardContent>
        <p className="text-sm text-muted-foreground">{costSentence}</p>
      </CardContent>
    </Card>
  );
}

function ChooseHint() {
  return (
    <div className="flex items-center gap-3 rounded-xl border border-dashed border-border p-4 text-sm text-muted-foreground">
      <MousePointerClick aria-hidden="true" className="size-5 shrink-0" />
      Choose a package to see how to pay.
    </div>
  );
}

/** The other reading of the commercial model: daily generations on /subscribe. */
function DailyGenerationsCard({ withPrices }: { withPrices: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <CalendarClock aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Daily generations
        </CardTitle>
        <CardDescription>
          {DAILY_GENERATION_LIMIT} videos every day
          {withPrices ? ` from ${formatPrice(SUBSCRIPTION_INTRO_PRICE_CENTS)}/day` : ''}, plus extra generation packs.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link href="/subscribe" className={buttonVariants({ variant: 'outline', className: 'w-full' })}>
          See daily plans <ArrowRight aria-hidden="true" />
        </Link>
      </CardContent>
    </Card>
  );
}
