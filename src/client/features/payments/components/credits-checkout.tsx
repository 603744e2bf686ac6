import { Hourglass, LayoutDashboard, Mail } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';

import { creditPurchaseLine, creditsAddedSentence } from '../../../../shared/money/display';
import { formatUsd } from '../../../../shared/money/payments';
import { NoticeCard } from '../../../components/layouts/notice-card';
import { buttonVariants } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { getSupportEmail } from '../../../lib/support-email';
import { useCreateCreditsPaymentIntent } from '../api/create-credits-payment-intent';
import { useFulfillCredits } from '../api/fulfill-credits';
import { useOncePerKey } from '../hooks/use-once-per-key';
import { isPaymentsDisabledError, paymentStartErrorMessage } from '../payment-errors';
import {
  PaymentErrorCard,
  PaymentSucceededCard,
  PaymentUnavailableCard,
  PreparingPaymentCard,
} from './payment-notices';
import { PaymentFormCard } from './payment-form-card';

/** Browser timings (docs/product-rules.md): the redirect after credit fulfilment. */
export const FULFILMENT_REDIRECT_MS = 1000;
/** Where the buyer goes once the credits are on the account: the dashboard shows the new balance. */
const AFTER_PURCHASE_PATH = '/dashboard';
const CREDITS_PENDING = 'Your payment was successful, but there was an issue adding credits. Please contact support.';

type Fulfilment = { kind: 'credited'; credits: number } | { kind: 'pending' };

/**
 * /payment-checkout once the amount is valid and the server takes payments: creates the
 * PaymentIntent (once), shows the card form, and after Stripe confirms, has the server credit the
 * account, refetches, and moves on a second later.
 */
export function CreditsCheckout({ credits, publishableKey }: { credits: number; publishableKey: string }) {
  const [, navigate] = useLocation();
  const intent = useCreateCreditsPaymentIntent();
  const fulfil = useFulfillCredits();
  const [fulfilment, setFulfilment] = useState<Fulfilment | null>(null);
  useOncePerKey(credits, intent.mutate);

  useEffect(() => {
    if (fulfilment?.kind !== 'credited') return;
    const timer = setTimeout(() => navigate(AFTER_PURCHASE_PATH), FULFILMENT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [fulfilment, navigate]);

  const handlePaid = async (paymentIntentId: string) => {
    try {
      const result = await fulfil.mutateAsync({ paymentIntentId, credits });
      toast({ title: 'Payment Successful!', description: creditsAddedSentence(result.creditsAdded) });
      setFulfilment({ kind: 'credited', credits: result.creditsAdded });
    } catch (error) {
      console.warn('Payment succeeded but the credits were not added.', error);
      toast({ title: 'Payment Complete', description: CREDITS_PENDING });
      setFulfilment({ kind: 'pending' });
    }
  };

  if (fulfilment) return <FulfilmentCard fulfilment={fulfilment} />;
  if (intent.isError) {
    return isPaymentsDisabledError(intent.error) ? (
      <PaymentUnavailableCard />
    ) : (
      <PaymentErrorCard message={paymentStartErrorMessage(intent.error)} />
    );
  }
  if (!intent.data) return <PreparingPaymentCard />;
  return (
    <PaymentFormCard
      key={intent.data.clientSecret}
      publishableKey={publishableKey}
      clientSecret={intent.data.clientSecret}
      title="Complete Payment"
      description={creditPurchaseLine(intent.data.credits, intent.data.amountCents)}
      submitLabel={`Pay ${formatUsd(intent.data.amountCents)}`}
      cancelLabel="Cancel"
      onCancel={() => navigate('/credits')}
      returnUrl={`${window.location.origin}/credits`}
      unexpectedErrorMessage="Something went wrong. Please try again."
      onPaid={handlePaid}
    />
  );
}

function FulfilmentCard({ fulfilment }: { fulfilment: Fulfilment }) {
  if (fulfilment.kind === 'credited') {
    return (
      <PaymentSucceededCard
        description={`${creditsAddedSentence(fulfilment.credits)}. Taking you to your dashboard...`}
        action={
          <Link href={AFTER_PURCHASE_PATH} className={buttonVariants({ variant: 'brand' })}>
            <LayoutDashboard aria-hidden="true" /> Go to Dashboard
          </Link>
        }
      />
    );
  }
  const email = getSupportEmail();
  return (
    <NoticeCard
      icon={<Hourglass aria-hidden="true" />}
      title="Credits Pending"
      description={CREDITS_PENDING}
      action={
        <a href={`mailto:${email}`} className={buttonVariants({ variant: 'outline' })}>
          <Mail aria-hidden="true" /> {email}
        </a>
      }
    />
  );
}
