import { useEffect, useRef, useState } from 'react';

import type { ExtraPackName } from '../../../../shared/money/plans';
import { toast } from '../../../components/ui/use-toast';
import { browserNavigation } from '../../../lib/browser-navigation';
import { signInPath, useSignInOptions } from '../../../lib/sign-in-options';
import { useBuyExtraGenerations } from '../api/buy-extra-generations';
import { useConfirmPayment } from '../api/confirm-payment';
import { useStartSubscription } from '../api/start-subscription';
import { isPaymentsDisabledError, isUnauthorizedError } from '../payment-errors';

/** Browser timings (docs/product-rules.md): the wait before a logged-out buyer is sent to sign in again. */
export const UNAUTHORIZED_REDIRECT_MS = 500;

export type Purchase = { mode: 'subscription' } | { mode: 'extra'; pack: ExtraPackName };

interface OpenPayment {
  purchase: Purchase;
  clientSecret: string;
}

/**
 * /subscribe's flow (docs/product-rules.md, Screens): idle with the offers, then a client secret for the
 * subscription or a pack shows the card form; a confirmed payment clears it, asks the server to
 * check it with Stripe, and shows 'Payment Successful!'. Cancel returns to the offers.
 */
export function useSubscribeFlow({ returnedFromStripe }: { returnedFromStripe: boolean }) {
  const [payment, setPayment] = useState<OpenPayment | null>(null);
  const [succeeded, setSucceeded] = useState(returnedFromStripe);
  const [disabledByServer, setDisabledByServer] = useState(false);
  const start = useStartSubscription();
  const buy = useBuyExtraGenerations();
  const confirm = useConfirmPayment();
  // 'Logging in again...' goes to the spec's /api/login when OpenID Connect is configured, else to /login.
  const signInOptions = useSignInOptions();
  const signInTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (signInTimer.current) clearTimeout(signInTimer.current);
    },
    [],
  );

  /** Wording (docs/product-rules.md): the start calls' failures. */
  const handleStartError = (error: Error) => {
    if (isPaymentsDisabledError(error)) return setDisabledByServer(true);
    if (isUnauthorizedError(error)) {
      toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
      signInTimer.current = setTimeout(
        () => browserNavigation.assign(signInPath(signInOptions)),
        UNAUTHORIZED_REDIRECT_MS,
      );
      return;
    }
    toast({ title: 'Error', description: 'Failed to initialize payment', variant: 'destructive' });
  };
  const openFor = (purchase: Purchase) => (clientSecret: string) => {
    setSucceeded(false);
    setPayment({ purchase, clientSecret });
  };

  /** After Stripe confirms: back to the status, with the server's own check of the payment. */
  const handlePaid = async (paymentIntentId: string | undefined) => {
    setPayment(null);
    setSucceeded(true);
    try {
      await confirm.mutateAsync(paymentIntentId);
    } catch (error) {
      // The payment went through at Stripe; a webhook settles it if this check could not.
      console.warn('The server could not confirm the payment yet.', error);
    }
  };

  return {
    payment,
    succeeded,
    disabledByServer,
    isStartingSubscription: start.isPending,
    buyingPack: buy.isPending ? (buy.variables ?? null) : null,
    isStarting: start.isPending || buy.isPending,
    startSubscription: () =>
      start.mutate(undefined, { onSuccess: openFor({ mode: 'subscription' }), onError: handleStartError }),
    buyPack: (pack: ExtraPackName) =>
      buy.mutate(pack, { onSuccess: openFor({ mode: 'extra', pack }), onError: handleStartError }),
    cancel: () => setPayment(null),
    handlePaid,
  };
}
