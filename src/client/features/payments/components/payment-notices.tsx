import { CircleCheck, CircleOff, LoaderCircle, LogIn, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { mentionsLogIn } from '../../../../shared/money/display';
import { BackLink } from '../../../components/layouts/back-link';
import { NoticeCard } from '../../../components/layouts/notice-card';
import { buttonVariants } from '../../../components/ui/button';
import { OperatorContact } from './operator-contact';

const backToCredits = (
  <BackLink href="/credits" size="default">
    Back to Credits
  </BackLink>
);

/** 'Preparing Payment', 'Processing Payment': a step that is under way. */
export function PaymentProgressCard({ title, description }: { title: string; description: string }) {
  return (
    <NoticeCard
      role="status"
      icon={<LoaderCircle aria-hidden="true" className="animate-spin" />}
      tone="brand"
      title={title}
      description={description}
    />
  );
}

/** Screens (docs/product-rules.md), /payment-checkout: shown until the card form can be drawn. */
export function PreparingPaymentCard() {
  return (
    <PaymentProgressCard title="Preparing Payment" description="Setting up a secure card payment with Stripe..." />
  );
}

/** 'Payment Successful!' once a card-form payment has gone through. */
export function PaymentSucceededCard({ description, action }: { description: string; action?: ReactNode }) {
  return (
    <NoticeCard
      role="status"
      icon={<CircleCheck aria-hidden="true" />}
      tone="success"
      title="Payment Successful!"
      description={description}
      action={action}
    />
  );
}

/** Wording (docs/product-rules.md): 'Payment Error' with the reason, Log In when the reason is about logging in, and Back to Credits. */
export function PaymentErrorCard({ message }: { message: string }) {
  const actions = (
    <div className="flex flex-wrap gap-2">
      {mentionsLogIn(message) ? (
        <Link href="/login" className={buttonVariants({ variant: 'brand' })}>
          <LogIn aria-hidden="true" /> Log In
        </Link>
      ) : null}
      {backToCredits}
    </div>
  );
  return (
    <NoticeCard
      role="alert"
      icon={<TriangleAlert aria-hidden="true" />}
      tone="danger"
      title="Payment Error"
      description={message}
      action={actions}
    />
  );
}

interface PaymentUnavailableCardProps {
  title?: string;
  description?: string;
  /** Off on /credits itself. */
  showBackToCredits?: boolean;
}

/** A server without Stripe keys: 'Payment Unavailable' (docs/product-rules.md, Wording), or the words /subscribe uses, and who to ask for credits. */
export function PaymentUnavailableCard({
  title = 'Payment Unavailable',
  description = 'Payment system is not configured',
  showBackToCredits = true,
}: PaymentUnavailableCardProps) {
  return (
    <NoticeCard
      icon={<CircleOff aria-hidden="true" />}
      title={title}
      description={
        <>
          <span className="block">{description}</span>
          <OperatorContact className="mt-1 block" />
        </>
      }
      action={showBackToCredits ? backToCredits : undefined}
    />
  );
}
