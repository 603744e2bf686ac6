import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { FakeStripe } from '../../../../tests/support/fake-stripe';
import { createStripeTestApp, type DeliverWebhook } from '../../../../tests/support/stripe-app';
import type { Receipt } from '../../../shared/money/billing-account';

let stripe: FakeStripe;
let t: TestApp;
let deliver: DeliverWebhook;

beforeAll(async () => {
  ({ t, stripe, deliver } = await createStripeTestApp());
});
afterAll(() => t.close());

describe('GET /api/payments/receipts', () => {
  it("lists the user's own payments with what they bought, refunds and Stripe's receipt link", async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const other = await createUser(t.db);
    const otherCookie = await signIn(t.app, other);

    const created = await injectJson(t.app, 'POST', '/api/credits/payment-intent', { cookie, body: { credits: 30 } });
    const intent = stripe.setPaymentIntentStatus(created.json().paymentIntentId, 'succeeded');
    await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie,
      body: { paymentIntentId: intent.id, credits: 30 },
    });
    const pack = await injectJson(t.app, 'POST', '/api/payments/extra-generations', {
      cookie,
      body: { package: 'small' },
    });
    const packIntent = [...stripe.paymentIntents.values()].find((pi) => pi.client_secret === pack.json().clientSecret);
    if (!packIntent) throw new Error('no pack intent');
    stripe.setPaymentIntentStatus(packIntent.id, 'succeeded');
    await deliver(stripe.event('payment_intent.succeeded', packIntent));
    await deliver(stripe.event('charge.refunded', stripe.refund(intent.id, 1000)));

    const response = await injectJson(t.app, 'GET', '/api/payments/receipts', { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const receipts = response.json<{ receipts: Receipt[] }>().receipts;
    expect(receipts).toHaveLength(2);
    const credits = receipts.find((r) => r.id === intent.id);
    expect(credits).toMatchObject({
      kind: 'credits',
      description: '30 credits',
      amountCents: 3000,
      refundedCents: 1000,
      status: 'partially_refunded',
      receiptUrl: `https://pay.stripe.com/receipts/payment/test_${intent.id}`,
    });
    expect(receipts.find((r) => r.id === packIntent.id)).toMatchObject({
      kind: 'extra_pack',
      description: 'Small pack: 30 extra generations',
      amountCents: 1000,
      status: 'paid',
    });

    // The links are stored: a second listing does not ask Stripe again.
    const lookups = stripe.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/v1/payment_intents/'),
    ).length;
    await injectJson(t.app, 'GET', '/api/payments/receipts', { cookie });
    expect(stripe.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/payment_intents/')).length).toBe(
      lookups,
    );

    expect((await injectJson(t.app, 'GET', '/api/payments/receipts', { cookie: otherCookie })).json()).toEqual({
      receipts: [],
    });

    // A subscriber's paid invoices are receipts too.
    expect(
      (await injectJson(t.app, 'POST', '/api/payments/start-subscription', { cookie: otherCookie })).statusCode,
    ).toBe(200);
    const subscription = [...stripe.subscriptions.values()].find(
      (s) => s.metadata && (s.metadata as { userId?: string }).userId === other.id,
    );
    if (!subscription) throw new Error('no subscription');
    stripe.setSubscriptionStatus(subscription.id, 'active');
    const withInvoice = (await injectJson(t.app, 'GET', '/api/payments/receipts', { cookie: otherCookie })).json<{
      receipts: Receipt[];
    }>().receipts;
    expect(withInvoice).toEqual([
      expect.objectContaining({
        kind: 'subscription',
        description: 'Daily subscription',
        amountCents: 100,
        status: 'paid',
        receiptUrl: expect.stringContaining('https://invoice.stripe.com/'),
      }),
    ]);
    expect((await injectJson(t.app, 'GET', '/api/payments/receipts')).statusCode).toBe(401);
  });
});
