import type { Stripe } from '@stripe/stripe-js';
import { vi } from 'vitest';

import { setStripeLoader } from '../../features/payments/stripe/load-stripe';

type ConfirmResult = { error: { message?: string } } | { paymentIntent: { id: string; status: string } };

interface FakeStripeOptions {
  /** What confirmPayment answers; by default the PaymentIntent named by the client secret, succeeded. */
  confirmResult?: ConfirmResult;
  /** The element fires 'loaderror' instead of 'ready'. */
  failLoad?: boolean;
  /** The element never becomes ready. */
  neverReady?: boolean;
}

type Handler = (event: { elementType: string; error?: { message: string } }) => void;

/**
 * Stands in for Stripe.js in jsdom: the few calls the payment form makes (elements, create,
 * mount with ready or loaderror, submit, confirmPayment), installed through the payments feature's
 * loader seam. Call `removeFakeStripe` after each test.
 */
export function installFakeStripe(options: FakeStripeOptions = {}) {
  let clientSecret = '';
  const destroy = vi.fn();
  const confirmPayment = vi.fn(
    async (_params: unknown): Promise<ConfirmResult> =>
      options.confirmResult ?? { paymentIntent: { id: clientSecret.split('_secret_')[0] ?? '', status: 'succeeded' } },
  );
  const createElement = () => {
    const handlers = new Map<string, Handler[]>();
    const fire = (name: string, event: Parameters<Handler>[0]) =>
      handlers.get(name)?.forEach((handler) => handler(event));
    const element = {
      on(name: string, handler: Handler) {
        handlers.set(name, [...(handlers.get(name) ?? []), handler]);
        return element;
      },
      mount(node: HTMLElement) {
        node.innerHTML = '<div data-testid="fake-payment-element">Card number</div>';
        if (options.neverReady) return;
        setTimeout(() => {
          if (options.failLoad) fire('loaderror', { elementType: 'payment', error: { message: 'fake load failure' } });
          else fire('ready', { elementType: 'payment' });
        }, 0);
      },
      destroy,
    };
    return element;
  };
  const elements = vi.fn((params: { clientSecret: string }) => {
    clientSecret = params.clientSecret;
    return { create: createElement, submit: async () => ({}), update: vi.fn() };
  });
  const stripe = { elements, confirmPayment };
  const loader = vi.fn(async (_key: string) => stripe as unknown as Stripe);
  setStripeLoader(loader);
  return { loader, elements, confirmPayment, destroy };
}

export function removeFakeStripe(): void {
  setStripeLoader(undefined);
}
