import { Link, useLocation, useSearchParams } from 'wouter';

import { canStartSubscription, isSubscribed } from '../../../shared/auth';
import { AppShell } from '../../components/layouts/app-shell';
import { BackLink } from '../../components/layouts/back-link';
import { Spinner } from '../../components/ui/spinner';
import { SignOutLink } from '../../features/auth/components/sign-out-link';
import { useGenerationStatus } from '../../features/credits/api/get-generation-status';
import { GenerationStatusCard } from '../../features/credits/components/generation-status-card';
import { publishableKeyOf, usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { ExtraPackList } from '../../features/payments/components/extra-pack-list';
import { PaymentFormCard } from '../../features/payments/components/payment-form-card';
import { PaymentSucceededCard, PaymentUnavailableCard } from '../../features/payments/components/payment-notices';
import { SecurePaymentsNote } from '../../features/payments/components/payment-page-parts';
import { SubscriptionOfferCard } from '../../features/payments/components/subscription-offer-card';
import { useSubscriptionDetails } from '../../features/payments/api/subscription-management';
import { SubscriptionManageCard } from '../../features/payments/components/subscription-manage-card';
import { useOncePerKey } from '../../features/payments/hooks/use-once-per-key';
import { type Purchase, useSubscribeFlow } from '../../features/payments/hooks/use-subscribe-flow';
import { useAuth } from '../../lib/auth';

const FORM_TEXTS: Record<Purchase['mode'], { title: string; description: string }> = {
  subscription: {
    title: 'Complete Your Subscription',
    description: '$1/day for your first week, then $2/day with 15 daily generations',
  },
  extra: { title: 'Complete Your Purchase', description: 'Add extra generations to your account (valid for 30 days)' },
};

/**
 * /subscribe (docs/product-rules.md, Screens): the generation status, the daily subscription for users without
 * one, the extra packs, and the card form once a purchase is started. Stripe sends redirect-based
 * payments back to /subscribe?success=true, which confirms like the form does.
 */
export function SubscribePage() {
  const { isAuthenticated } = useAuth();
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const returned = params.get('success') === 'true';
  const status = useGenerationStatus({ enabled: isAuthenticated });
  const config = usePaymentsConfig();
  const flow = useSubscribeFlow({ returnedFromStripe: returned });
  useOncePerKey(returned ? (params.get('payment_intent') ?? 'returned') : null, (key) => {
    void flow.handlePaid(key === 'returned' ? undefined : key);
    navigate('/subscribe', { replace: true });
  });

  const publishableKey = config.data ? publishableKeyOf(config.data) : null;
  const unavailable = flow.disabledByServer || (config.data !== undefined && publishableKey === null);
  const showSubscription = status.data ? canStartSubscription(status.data.subscriptionStatus) : status.isError;
  const subscribed = status.data ? isSubscribed(status.data.subscriptionStatus) : false;
  const details = useSubscriptionDetails(isAuthenticated && config.data?.enabled === true);
  const manage =
    details.data && (subscribed || details.data.canManageBilling) ? (
      <SubscriptionManageCard details={details.data} subscribed={subscribed} />
    ) : null;

  let offers;
  if (unavailable) {
    offers = (
      <PaymentUnavailableCard
        title="Payment System Unavailable"
        description="Payment processing is currently disabled"
        showBackToCredits={false}
      />
    );
  } else if (flow.payment && publishableKey) {
    const texts = FORM_TEXTS[flow.payment.purchase.mode];
    offers = (
      <div className="mx-auto w-full max-w-xl">
        <PaymentFormCard
          key={flow.payment.clientSecret}
          publishableKey={publishableKey}
          clientSecret={flow.payment.clientSecret}
          title={texts.title}
          description={texts.description}
          submitLabel="Complete Payment"
          cancelLabel="Cancel Payment"
          onCancel={flow.cancel}
          returnUrl={`${window.location.origin}/subscribe?success=true`}
          unexpectedErrorMessage="An unexpected error occurred"
          onPaid={flow.handlePaid}
        />
      </div>
    );
  } else if (config.isPending) {
    offers = <Spinner label="Loading offers" className="justify-self-center py-10" />;
  } else {
    offers = (
      <div className={showSubscription ? 'grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start' : 'grid gap-6'}>
        {showSubscription ? (
          <SubscriptionOfferCard
            onStart={flow.startSubscription}
            isStarting={flow.isStartingSubscription}
            disabled={flow.isStarting}
          />
        ) : null}
        <ExtraPackList onBuy={flow.buyPack} buying={flow.buyingPack} disabled={flow.isStarting} />
      </div>
    );
  }

  return (
    <AppShell
      title="Daily Generations"
      subtitle="Your daily allowance, the subscription and extra packs"
      actions={<BackLink href="/generator">Back to Generator</BackLink>}
    >
      <div className="grid gap-6">
        {flow.succeeded ? <PaymentSucceededCard description="Thank you! Your generations are updated below." /> : null}
        <GenerationStatusCard status={status.data} isError={status.isError} />
        {manage}
        {offers}
        <footer className="grid gap-2 border-t border-border pt-6">
          {unavailable ? null : <SecurePaymentsNote />}
          <Link
            href="/account"
            className="inline-flex min-h-6 items-center justify-self-center text-sm font-medium text-violet-700 max-md:min-h-11 underline-offset-4 hover:underline dark:text-violet-300"
          >
            Your receipts
          </Link>
          <SignOutLink />
        </footer>
      </div>
    </AppShell>
  );
}
