import { ExternalLink, LogIn, ShoppingCart } from 'lucide-react';
import { Link } from 'wouter';

import { formatPrice, purchaseCreditsLabel } from '../../../../shared/money/display';
import { CREDIT_PRICE_CENTS } from '../../../../shared/money/payments';
import { formatCreditTitle } from '../../../../shared/money/credits';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useCreateCheckoutSession } from '../api/create-checkout-session';
import { paymentStartErrorMessage } from '../payment-errors';

interface CreditsPurchasePanelProps {
  credits: number;
  /** False when this server takes no payments: the package is shown but cannot be bought. */
  canPay: boolean;
}

/**
 * Screens (docs/product-rules.md): the chosen package's purchase panel. The main way is the embedded card form
 * (/payment-checkout); Stripe's hosted Checkout page is the second.
 */
export function CreditsPurchasePanel({ credits, canPay }: CreditsPurchasePanelProps) {
  const checkout = useCreateCheckoutSession();
  const label = purchaseCreditsLabel(credits);
  const leaving = checkout.isPending || checkout.isSuccess;
  const mainClass = cn(buttonVariants({ variant: 'brand', size: 'lg' }), 'w-full whitespace-normal');
  return (
    <Card className="border-violet-500/40">
      <CardHeader>
        <CardTitle>{formatCreditTitle(credits)}</CardTitle>
        <CardDescription>
          {formatPrice(credits * CREDIT_PRICE_CENTS)} · {formatPrice(CREDIT_PRICE_CENTS)} per credit · credits never
          expire
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {canPay ? (
          <Link href={`/payment-checkout?credits=${credits}`} className={mainClass}>
            <ShoppingCart aria-hidden="true" /> {label}
          </Link>
        ) : (
          <Button variant="brand" size="lg" className="w-full whitespace-normal" disabled>
            <ShoppingCart aria-hidden="true" /> {label}
          </Button>
        )}
        <Button variant="outline" disabled={!canPay || leaving} onClick={() => checkout.mutate(credits)}>
          <ExternalLink aria-hidden="true" /> {leaving ? 'Redirecting to Stripe...' : 'Pay on Stripe Checkout'}
        </Button>
        {checkout.isError ? <CheckoutError error={checkout.error} /> : null}
        <p className="text-xs text-muted-foreground">Pay by card here, or on Stripe&apos;s own checkout page.</p>
      </CardContent>
    </Card>
  );
}

/** Wording (docs/product-rules.md), checkout creation: the reason, with a way to log in after a 401. */
function CheckoutError({ error }: { error: Error }) {
  return (
    <div role="alert" className="grid gap-2 rounded-lg bg-destructive/10 p-3 text-sm font-medium text-destructive">
      <p>{paymentStartErrorMessage(error)}</p>
      {error instanceof ApiError && error.status === 401 ? (
        <Link
          href="/login"
          className={buttonVariants({ variant: 'outline', size: 'sm', className: 'justify-self-start' })}
        >
          <LogIn aria-hidden="true" /> Log In
        </Link>
      ) : null}
    </div>
  );
}
