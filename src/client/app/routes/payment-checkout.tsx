import { useSearchParams } from 'wouter';

import { parseCreditsParam } from '../../../shared/money/payments';
import { AppShell } from '../../components/layouts/app-shell';
import { BackLink } from '../../components/layouts/back-link';
import { SignOutLink } from '../../features/auth/components/sign-out-link';
import { publishableKeyOf, usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import { CreditsCheckout } from '../../features/payments/components/credits-checkout';
import { SecurePaymentsNote } from '../../features/payments/components/payment-page-parts';
import {
  PaymentErrorCard,
  PaymentUnavailableCard,
  PreparingPaymentCard,
} from '../../features/payments/components/payment-notices';

/**
 * /payment-checkout?credits=N (docs/product-rules.md, Screens): the embedded card form for N credits. The amount is
 * checked first (docs/product-rules.md, Prices), then whether this server takes payments at all.
 */
export function PaymentCheckoutPage() {
  const [params] = useSearchParams();
  const amount = parseCreditsParam(params.get('credits'));
  const config = usePaymentsConfig();
  const publishableKey = config.data ? publishableKeyOf(config.data) : null;

  const body = !amount.ok ? (
    <PaymentErrorCard message={amount.message} />
  ) : config.isPending ? (
    <PreparingPaymentCard />
  ) : config.isError ? (
    <PaymentErrorCard message="Payment settings could not be loaded. Please try again." />
  ) : publishableKey ? (
    <CreditsCheckout credits={amount.credits} publishableKey={publishableKey} />
  ) : (
    <PaymentUnavailableCard />
  );

  return (
    <AppShell title="Checkout" subtitle="Buy credits by card" actions={<BackLink href="/credits">Credits</BackLink>}>
      <div className="mx-auto grid w-full max-w-xl gap-4">
        {body}
        <SecurePaymentsNote />
        <SignOutLink />
      </div>
    </AppShell>
  );
}
