import type { Stripe, StripeElements, StripePaymentElement } from '@stripe/stripe-js';
import { useCallback, useEffect, useRef, useState } from 'react';

import { toast } from '../../../components/ui/use-toast';
import { onThemeChange, prefersDark, stripeAppearance } from '../stripe/appearance';
import { getStripe } from '../stripe/load-stripe';

/** Browser timings (docs/product-rules.md): after this long the form says it may be slow to load. */
export const SLOW_FORM_MS = 10_000;

export type PaymentElementState = 'loading' | 'ready' | 'failed';

/** How a confirmation ended; the screens word each kind (docs/product-rules.md, Wording). */
export type ConfirmOutcome =
  | { kind: 'succeeded'; paymentIntentId: string }
  /** Paid by a method that settles later (the PaymentIntent is processing, not failed). */
  | { kind: 'pending'; paymentIntentId: string }
  /** Stripe refused: the card was declined, a field is incomplete... */
  | { kind: 'failed'; message: string | undefined }
  | { kind: 'not_ready' }
  | { kind: 'error' };

interface Mounted {
  stripe: Stripe;
  elements: StripeElements;
}

/**
 * Mounts Stripe's Payment Element for a client secret into the returned ref's div, themed like the
 * page (light or 'night', following the system), and destroys it on unmount. `confirm` validates
 * the form, then confirms with Stripe, redirecting only when the payment method requires it.
 */
export function usePaymentElement({ publishableKey, clientSecret }: { publishableKey: string; clientSecret: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mounted = useRef<Mounted | null>(null);
  const [state, setState] = useState<PaymentElementState>('loading');
  const [isSlow, setIsSlow] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const node = containerRef.current;
    let active = true;
    let element: StripePaymentElement | null = null;
    let stopThemeWatch = () => {};
    const fail = (error: unknown) => {
      console.warn('The payment form could not be loaded.', error);
      if (!active) return;
      setState('failed');
      toast({
        title: 'Payment Form Error',
        description: 'Failed to load payment form. Please try again.',
        variant: 'destructive',
      });
    };
    getStripe(publishableKey)
      .then((stripe) => {
        if (!active || !node) return;
        const elements = stripe.elements({ clientSecret, appearance: stripeAppearance(prefersDark()) });
        element = elements.create('payment', { layout: 'tabs' });
        element.on('ready', () => {
          if (active) setState('ready');
        });
        element.on('loaderror', (event) => fail(event.error));
        element.mount(node);
        mounted.current = { stripe, elements };
        stopThemeWatch = onThemeChange(() => void elements.update({ appearance: stripeAppearance(prefersDark()) }));
      })
      .catch(fail);
    return () => {
      active = false;
      mounted.current = null;
      stopThemeWatch();
      element?.destroy();
    };
  }, [publishableKey, clientSecret, attempt]);

  useEffect(() => {
    if (state !== 'loading') return;
    const timer = setTimeout(() => setIsSlow(true), SLOW_FORM_MS);
    return () => clearTimeout(timer);
  }, [state, attempt]);

  /** Loads the form again after a load error. */
  const retry = useCallback(() => {
    setState('loading');
    setIsSlow(false);
    setAttempt((n) => n + 1);
  }, []);

  const confirm = useCallback(
    async (returnUrl: string): Promise<ConfirmOutcome> => {
      const current = mounted.current;
      if (!current || state !== 'ready') return { kind: 'not_ready' };
      try {
        const submitted = await current.elements.submit();
        if (submitted.error) return { kind: 'failed', message: submitted.error.message };
        const result = await current.stripe.confirmPayment({
          elements: current.elements,
          confirmParams: { return_url: returnUrl },
          redirect: 'if_required',
        });
        if (result.error) return { kind: 'failed', message: result.error.message };
        const { id, status } = result.paymentIntent;
        return status === 'succeeded'
          ? { kind: 'succeeded', paymentIntentId: id }
          : { kind: 'pending', paymentIntentId: id };
      } catch (error) {
        console.warn('Payment confirmation threw.', error);
        return { kind: 'error' };
      }
    },
    [state],
  );

  return { containerRef, state, isSlow, retry, confirm };
}
