import { useSearchParams } from 'wouter';

import { AppShell } from '../../components/layouts/app-shell';
import { useConfirmCheckoutSession } from '../../features/payments/api/confirm-checkout-session';
import { usePaymentsConfig } from '../../features/payments/api/get-payments-config';
import {
  PaymentErrorCard,
  PaymentProgressCard,
  PaymentUnavailableCard,
} from '../../features/payments/components/payment-notices';
import { PaymentSuccessCard } from '../../features/payments/components/payment-success-card';
import { useOncePerKey } from '../../features/payments/hooks/use-once-per-key';
import { confirmationErrorMessage, isPaymentsDisabledError } from '../../features/payments/payment-errors';

/**
 * /payment-success?session_id=... (docs/product-rules.md, Screens): where Stripe Checkout sends the buyer back. The
 * server checks the session with Stripe and credits it once (a reload reports it again harmlessly).
 */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim() || null;
  const confirmation = useConfirmCheckoutSession();
  const config = usePaymentsConfig();
  // A server without Stripe keys took no payment: nothing is confirmed, and it says so plainly.
  const disabled =
    config.data?.enabled === false || (confirmation.isError && isPaymentsDisabledError(confirmation.error));
  // Confirmed once the server is known to take payments (or its config cannot be read: the call then says).
  const mayConfirm = config.data ? config.data.enabled : config.isError;
  useOncePerKey(mayConfirm ? sessionId : null, confirmation.mutate);

  const body = disabled ? (
    <PaymentUnavailableCard />
  ) : !sessionId ? (
    <PaymentErrorCard message="No payment session found" />
  ) : confirmation.isError ? (
    <PaymentErrorCard message={confirmationErrorMessage(confirmation.error)} />
  ) : confirmation.data ? (
    <PaymentSuccessCard creditsAdded={confirmation.data.creditsAdded} />
  ) : (
    <PaymentProgressCard title="Processing Payment" description="Confirming your payment with Stripe..." />
  );

  return (
    <AppShell title="Payment" subtitle="Your credit purchase">
      <div className="mx-auto w-full max-w-xl">{body}</div>
    </AppShell>
  );
}
