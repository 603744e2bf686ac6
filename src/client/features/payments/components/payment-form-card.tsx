import { Clock, CreditCard, Lock, RotateCw, TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { type ConfirmOutcome, usePaymentElement } from '../hooks/use-payment-element';

interface PaymentFormCardProps {
  publishableKey: string;
  clientSecret: string;
  title: string;
  description: string;
  submitLabel: string;
  cancelLabel: string;
  /** Back to where the payment started; also called when a payment is left processing at Stripe. */
  onCancel: () => void;
  /** Where Stripe sends the browser back to, for payment methods that need a redirect. */
  returnUrl: string;
  /** The payment wording (docs/product-rules.md, Wording) words an unexpected failure differently on /payment-checkout and /subscribe. */
  unexpectedErrorMessage: string;
  /** Called once Stripe says the payment succeeded; the card stays in 'Processing...' until it settles. */
  onPaid: (paymentIntentId: string) => Promise<void> | void;
}

/** Wording (docs/product-rules.md): the embedded form's messages for a confirmation that did not succeed. */
function reportOutcome(outcome: Exclude<ConfirmOutcome, { kind: 'succeeded' }>, unexpectedErrorMessage: string) {
  switch (outcome.kind) {
    case 'failed':
      return toast({
        title: 'Payment Failed',
        description: outcome.message ?? 'Payment could not be processed.',
        variant: 'destructive',
      });
    case 'not_ready':
      return toast({
        title: 'Payment Error',
        description: 'Payment system not ready. Please try again.',
        variant: 'destructive',
      });
    case 'error':
      return toast({ title: 'Payment Error', description: unexpectedErrorMessage, variant: 'destructive' });
    case 'pending':
      return toast({
        title: 'Payment Processing',
        description: 'Your payment is still being processed. Your account will be updated as soon as it completes.',
      });
  }
}

/** Stripe's Payment Element in a card, with a loading overlay until it is ready and the two actions. */
export function PaymentFormCard(props: PaymentFormCardProps) {
  const { title, description, submitLabel, cancelLabel, onCancel } = props;
  const { containerRef, state, isSlow, retry, confirm } = usePaymentElement({
    publishableKey: props.publishableKey,
    clientSecret: props.clientSecret,
  });
  const [processing, setProcessing] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (processing) return;
    setProcessing(true);
    try {
      const outcome = await confirm(props.returnUrl);
      if (outcome.kind === 'succeeded') {
        await props.onPaid(outcome.paymentIntentId);
        return;
      }
      reportOutcome(outcome, props.unexpectedErrorMessage);
      if (outcome.kind === 'pending') onCancel();
    } finally {
      setProcessing(false);
    }
  };

  return (
    <Card>
      <CardHeader className="flex-row items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-linear-to-br from-violet-600 to-fuchsia-600 text-white shadow-sm">
          <CreditCard aria-hidden="true" className="size-5" />
        </span>
        <div className="grid gap-1">
          <CardTitle>{title}</CardTitle>
          <CardDescription className="font-medium text-foreground">{description}</CardDescription>
        </div>
      </CardHeader>
      <form onSubmit={(event) => void handleSubmit(event)} aria-label={title}>
        <CardContent>
          <div className="relative min-h-60">
            <div ref={containerRef} aria-busy={state === 'loading'} />
            {state === 'loading' ? <FormLoadingOverlay isSlow={isSlow} /> : null}
            {state === 'failed' ? <FormLoadFailed onRetry={retry} /> : null}
          </div>
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onCancel} disabled={processing}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant="brand" disabled={processing || state !== 'ready'}>
            <Lock aria-hidden="true" /> {processing ? 'Processing...' : submitLabel}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

/** Browser timings (docs/product-rules.md): covers the form until Stripe says it is ready; after 10 s it warns it may be slow. */
function FormLoadingOverlay({ isSlow }: { isSlow: boolean }) {
  return (
    <div className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-3 rounded-lg bg-card px-4 text-center">
      <Spinner label="Loading payment form" />
      <p className="text-sm font-medium">Loading secure payment form...</p>
      <p className="max-w-xs text-xs text-muted-foreground">
        If the form takes more than 10 seconds to appear, refresh the page.
      </p>
      {isSlow ? (
        <Badge tone="warning">
          <Clock aria-hidden="true" /> Form may be slow to load
        </Badge>
      ) : null}
    </div>
  );
}

function FormLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 rounded-lg border border-dashed border-border px-4 text-center"
    >
      <TriangleAlert aria-hidden="true" className="size-6 text-destructive" />
      <p className="text-sm font-medium">The payment form did not load.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw aria-hidden="true" /> Try Again
      </Button>
    </div>
  );
}
