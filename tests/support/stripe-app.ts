import type { LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';
import type { ServiceOverrides } from '../../src/server/context';
import { createTestApp, injectJson, type TestApp } from './app';
import { type FakeStripe, startFakeStripe } from './fake-stripe';

const STRIPE_WEBHOOK_SECRET = 'whsec_test_secret_for_reelsmith';
const STRIPE_PUBLISHABLE_KEY = 'pk_test_reelsmith';

/** Posts an event to the app's webhook, signed as Stripe signs it (with another secret to forge one). */
export type DeliverWebhook = (event: object, secret?: string) => Promise<LightMyRequestResponse>;

export interface StripeTestApp {
  /** The app; its close() also stops the fake Stripe. */
  t: TestApp;
  stripe: FakeStripe;
  deliver: DeliverWebhook;
}

const signer = new Stripe('sk_test_signer');

/** The real application with payments switched on, its Stripe keys pointed at a fresh fake Stripe. */
export async function createStripeTestApp(options: ServiceOverrides = {}): Promise<StripeTestApp> {
  const stripe = await startFakeStripe();
  const app = await createTestApp(
    { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
    undefined,
    options,
  );
  const t: TestApp = {
    ...app,
    close: async () => {
      await app.close();
      await stripe.close();
    },
  };
  const deliver: DeliverWebhook = (event, secret = STRIPE_WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    return injectJson(t.app, 'POST', '/api/stripe/webhook', {
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret }),
      },
    });
  };
  return { t, stripe, deliver };
}
