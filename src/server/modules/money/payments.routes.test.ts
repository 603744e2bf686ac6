import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { FakeStripe } from '../../../../tests/support/fake-stripe';
import { createStripeTestApp, type DeliverWebhook } from '../../../../tests/support/stripe-app';
import { allowanceLedger, creditLedger, extraGenerationPacks, payments, stripeEvents, users } from '../../db/schema';
import { applyCreditChange } from './ledger.service';

let stripe: FakeStripe;
let t: TestApp;
let deliver: DeliverWebhook;
const clock = new Date('2026-11-23T15:00:00Z');

beforeAll(async () => {
  ({ t, stripe, deliver } = await createStripeTestApp({ now: () => clock }));
});
afterAll(() => t.close());

async function buyer(creditsHundredths = 0) {
  const user = await createUser(t.db, { creditsHundredths });
  return { user, cookie: await signIn(t.app, user) };
}

const creditsOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;
const ledgerOf = (id: string) => t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));

async function paidIntent(cookie: string, credits: number) {
  const created = await injectJson(t.app, 'POST', '/api/credits/payment-intent', { cookie, body: { credits } });
  expect(created.statusCode).toBe(200);
  const { paymentIntentId, clientSecret, amountCents } = created.json<{
    paymentIntentId: string;
    clientSecret: string;
    amountCents: number;
  }>();
  expect(clientSecret).toContain(paymentIntentId);
  expect(amountCents).toBe(credits * 100);
  return stripe.setPaymentIntentStatus(paymentIntentId, 'succeeded');
}

describe('GET /api/payments/config', () => {
  it('gives the browser the publishable key at run time, never the secret', async () => {
    const response = await injectJson(t.app, 'GET', '/api/payments/config');
    expect(response.json()).toEqual({ enabled: true, publishableKey: 'pk_test_reelsmith', operatorContact: null });
    expect(response.body).not.toContain(stripe.secretKey);
  });
});

describe('credits by the embedded card form', () => {
  it('creates a PaymentIntent for exactly N x $1 with the buyer in its metadata', async () => {
    const { user, cookie } = await buyer();
    const created = await injectJson(t.app, 'POST', '/api/credits/payment-intent', { cookie, body: { credits: 30 } });
    const intent = stripe.paymentIntents.get(created.json().paymentIntentId);
    expect(intent).toMatchObject({
      amount: 3000,
      currency: 'usd',
      metadata: { userId: user.id, kind: 'credits', credits: '30' },
    });
  });

  it('credits a payment reported 20 times at once by the fulfil call, checkout-success and the webhook exactly once', async () => {
    const { user, cookie } = await buyer(50);
    const intent = await paidIntent(cookie, 30);
    const event = stripe.event('payment_intent.succeeded', intent);
    const reports = Array.from({ length: 20 }, (_, i) =>
      i % 3 === 0
        ? deliver(i % 2 === 0 ? event : stripe.event('payment_intent.succeeded', intent))
        : injectJson(t.app, 'POST', '/api/credits/fulfill', {
            cookie,
            body: { paymentIntentId: intent.id, credits: 30 },
          }),
    );
    const answers = await Promise.all(reports);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const fulfils = answers.map((a) => a.json<{ creditsAdded?: number }>()).filter((f) => f.creditsAdded !== undefined);
    expect(fulfils.every((f) => f.creditsAdded === 30)).toBe(true);
    expect(await creditsOf(user.id)).toBe(50 + 3000);
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'purchase', deltaHundredths: 3000, reference: intent.id, actor: 'stripe' });
    expect(
      await t.db
        .select()
        .from(payments)
        .where(eq(payments.id, String(intent.id))),
    ).toHaveLength(1);
  });

  it('credits a hosted Checkout once whether the browser, the session event or the PaymentIntent event reports it', async () => {
    const { user, cookie } = await buyer();
    const created = await injectJson(t.app, 'POST', '/api/credits/checkout', { cookie, body: { creditsAmount: 75 } });
    expect(created.statusCode).toBe(200);
    const checkoutUrl: string = created.json().checkoutUrl;
    const sessionId = checkoutUrl.split('/').pop() ?? '';
    const session = stripe.sessions.get(sessionId);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 7500,
      client_reference_id: user.id,
      success_url: 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/credits',
    });
    // Not paid yet: nothing is credited.
    const early = await injectJson(t.app, 'POST', '/api/credits/checkout-success', { cookie, body: { sessionId } });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('payment_not_completed');

    const paid = stripe.paySession(sessionId);
    const intent = stripe.paymentIntents.get(String(paid.payment_intent));
    if (!intent) throw new Error('no PaymentIntent');
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        injectJson(t.app, 'POST', '/api/credits/checkout-success', { cookie, body: { sessionId } }),
      ),
      ...Array.from({ length: 6 }, () => deliver(stripe.event('checkout.session.completed', paid))),
      ...Array.from({ length: 6 }, () => deliver(stripe.event('payment_intent.succeeded', intent))),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.slice(0, 8).map((a) => a.json<{ creditsAdded: number }>().creditsAdded)).toEqual(Array(8).fill(75));
    expect(await creditsOf(user.id)).toBe(7500);
    expect(await ledgerOf(user.id)).toHaveLength(1);
  });

  it("refuses another user's payment, an unpaid one and an amount mismatch, crediting nothing", async () => {
    const owner = await buyer();
    const thief = await buyer();
    const intent = await paidIntent(owner.cookie, 10);
    const stolen = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie: thief.cookie,
      body: { paymentIntentId: intent.id, credits: 10 },
    });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().code).toBe('payment_not_yours');

    const unpaid = await injectJson(t.app, 'POST', '/api/credits/payment-intent', {
      cookie: owner.cookie,
      body: { credits: 10 },
    });
    const pending = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie: owner.cookie,
      body: { paymentIntentId: unpaid.json().paymentIntentId, credits: 10 },
    });
    expect(pending.statusCode).toBe(409);

    // The client claims more credits than were paid for.
    const more = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie: owner.cookie,
      body: { paymentIntentId: intent.id, credits: 200 },
    });
    expect(more.statusCode).toBe(422);
    // A PaymentIntent whose amount differs from its credits (edited at Stripe) is refused too.
    const tampered = await paidIntent(owner.cookie, 10);
    tampered.amount = 500;
    const cheap = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie: owner.cookie,
      body: { paymentIntentId: tampered.id, credits: 10 },
    });
    expect(cheap.statusCode).toBe(422);
    expect((await deliver(stripe.event('payment_intent.succeeded', tampered))).statusCode).toBe(200);

    const unknown = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie: owner.cookie,
      body: { paymentIntentId: 'pi_missing', credits: 10 },
    });
    expect(unknown.statusCode).toBe(404);

    expect(await creditsOf(owner.user.id)).toBe(0);
    expect(await creditsOf(thief.user.id)).toBe(0);
    expect(await ledgerOf(owner.user.id)).toHaveLength(0);
    expect(await t.db.select().from(payments).where(eq(payments.userId, owner.user.id))).toHaveLength(0);
  });

  it('validates amounts and says who may buy', async () => {
    const { cookie } = await buyer();
    for (const credits of [0, -5, 2.5, 10_001, '30']) {
      const response = await injectJson(t.app, 'POST', '/api/credits/payment-intent', { cookie, body: { credits } });
      expect(response.statusCode).toBe(400);
    }
    const signedOut = await injectJson(t.app, 'POST', '/api/credits/checkout', { body: { creditsAmount: 10 } });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toBe('Please log in to purchase credits');
    expect((await injectJson(t.app, 'POST', '/api/payments/start-subscription')).statusCode).toBe(401);
  });
});

describe('POST /api/stripe/webhook', () => {
  it('refuses a bad signature with 400 and handles each event id once', async () => {
    const { user, cookie } = await buyer();
    const intent = await paidIntent(cookie, 10);
    const event = stripe.event('payment_intent.succeeded', intent);
    const forged = await deliver(event, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('bad_signature');
    const unsigned = await injectJson(t.app, 'POST', '/api/stripe/webhook', {
      body: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await creditsOf(user.id)).toBe(0);

    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: true });
    expect(await creditsOf(user.id)).toBe(1000);
    expect(await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, event.id))).toHaveLength(1);
  });
});

describe('refunds (charge.refunded)', () => {
  const refunded = (charge: { id: string }) => deliver(stripe.event('charge.refunded', charge));

  it('takes back refunded credits once, partial refunds adding up, and never more than the buyer still has', async () => {
    const { user, cookie } = await buyer();
    const intent = await paidIntent(cookie, 30);
    await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie,
      body: { paymentIntentId: intent.id, credits: 30 },
    });
    expect(await creditsOf(user.id)).toBe(3000);

    // $10 back: 10 credits go, however often and however concurrently Stripe reports it.
    const partial = stripe.refund(intent.id, 1000);
    const event = stripe.event('charge.refunded', partial);
    const answers = await Promise.all([deliver(event), deliver(event), refunded(partial), refunded(partial)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await creditsOf(user.id)).toBe(2000);

    // The buyer spends 15, then the rest is refunded: only the 5 left can be taken back.
    await t.db.transaction((tx) =>
      applyCreditChange(tx, { userId: user.id, deltaHundredths: -1500, kind: 'charge', actor: 'test' }),
    );
    const full = stripe.refund(intent.id);
    expect(full.amount_refunded).toBe(3000);
    expect((await refunded(full)).statusCode).toBe(200);
    expect(await creditsOf(user.id)).toBe(0);
    // An older event arriving late changes nothing.
    await refunded(partial);
    expect(await creditsOf(user.id)).toBe(0);

    const reversals = (await ledgerOf(user.id)).filter((row) => row.kind === 'purchase_refund');
    expect(reversals.map((row) => row.deltaHundredths).sort()).toEqual([-1000, -500]);
    expect(reversals.every((row) => row.actor === 'stripe' && row.reference?.startsWith(`refund:${intent.id}:`))).toBe(
      true,
    );
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, intent.id));
    expect(payment?.refundedCents).toBe(3000);
  });

  it("takes back a refunded pack's unused generations, never those already used", async () => {
    const { user, cookie } = await buyer();
    const created = await injectJson(t.app, 'POST', '/api/payments/extra-generations', {
      cookie,
      body: { package: 'medium' },
    });
    const intent = [...stripe.paymentIntents.values()].find((pi) => pi.client_secret === created.json().clientSecret);
    if (!intent) throw new Error('no intent');
    stripe.setPaymentIntentStatus(intent.id, 'succeeded');
    await deliver(stripe.event('payment_intent.succeeded', intent));
    await t.db.update(extraGenerationPacks).set({ used: 50 }).where(eq(extraGenerationPacks.userId, user.id));

    // Half of $20 back: half of 70 generations (35) should go, but only 20 are unused.
    await refunded(stripe.refund(intent.id, 1000));
    const [pack] = await t.db.select().from(extraGenerationPacks).where(eq(extraGenerationPacks.userId, user.id));
    expect(pack).toMatchObject({ used: 50, generations: 50 });
    const status = await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie });
    expect(status.json().extraRemaining).toBe(0);
    const changes = await t.db.select().from(allowanceLedger).where(eq(allowanceLedger.userId, user.id));
    expect(changes.filter((c) => c.kind === 'pack_refund').map((c) => c.delta)).toEqual([-20]);
  });

  it('takes back a lost dispute on top of a partial refund, and nothing for a won one', async () => {
    const { user, cookie } = await buyer();
    const intent = await paidIntent(cookie, 30);
    await deliver(stripe.event('payment_intent.succeeded', intent));
    await refunded(stripe.refund(intent.id, 500));
    expect(await creditsOf(user.id)).toBe(2500);
    const dispute = (status: string, amount: number) => ({
      id: `dp_${status}`,
      object: 'dispute',
      amount,
      currency: 'usd',
      status,
      payment_intent: intent.id,
    });
    await deliver(stripe.event('charge.dispute.closed', dispute('won', 1000)));
    expect(await creditsOf(user.id)).toBe(2500);
    await deliver(stripe.event('charge.dispute.closed', dispute('lost', 1000)));
    expect(await creditsOf(user.id)).toBe(1500);
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, intent.id));
    expect(payment?.refundedCents).toBe(1500);
  });

  it('fulfils a payment refunded before anyone reported it, so that a later report cannot credit it', async () => {
    const { user, cookie } = await buyer();
    const intent = await paidIntent(cookie, 10);
    expect((await refunded(stripe.refund(intent.id))).statusCode).toBe(200);
    expect(await creditsOf(user.id)).toBe(0);
    const late = await injectJson(t.app, 'POST', '/api/credits/fulfill', {
      cookie,
      body: { paymentIntentId: intent.id, credits: 10 },
    });
    expect(late.json()).toMatchObject({ creditsAdded: 10, alreadyCredited: true });
    await deliver(stripe.event('payment_intent.succeeded', intent));
    expect(await creditsOf(user.id)).toBe(0);
    expect((await ledgerOf(user.id)).map((row) => [row.kind, row.deltaHundredths]).sort()).toEqual([
      ['purchase', 1000],
      ['purchase_refund', -1000],
    ]);
  });

  it('ignores a refund of a charge that is not ours', async () => {
    const orphan = { id: 'ch_orphan', object: 'charge', amount: 500, amount_refunded: 500, payment_intent: null };
    expect((await refunded(orphan)).statusCode).toBe(200);
    const unknown = { ...orphan, id: 'ch_unknown', payment_intent: 'pi_not_at_stripe' };
    expect((await refunded(unknown)).statusCode).toBe(200);
  });
});

describe('extra packs and the daily subscription', () => {
  it('sells a pack for its price and grants it once, valid 30 days', async () => {
    const { user, cookie } = await buyer();
    const bad = await injectJson(t.app, 'POST', '/api/payments/extra-generations', {
      cookie,
      body: { package: 'huge' },
    });
    expect(bad.statusCode).toBe(400);
    const created = await injectJson(t.app, 'POST', '/api/payments/extra-generations', {
      cookie,
      body: { package: 'medium' },
    });
    expect(created.statusCode).toBe(200);
    const clientSecret: string = created.json().clientSecret;
    const intent = [...stripe.paymentIntents.values()].find((pi) => pi.client_secret === clientSecret);
    expect(intent).toMatchObject({ amount: 2000, metadata: { userId: user.id, kind: 'extra_pack', pack: 'medium' } });
    if (!intent) throw new Error('no intent');
    stripe.setPaymentIntentStatus(intent.id, 'succeeded');
    const [confirmed] = await Promise.all([
      injectJson(t.app, 'POST', '/api/payments/confirm', { cookie, body: { paymentIntentId: intent.id } }),
      deliver(stripe.event('payment_intent.succeeded', intent)),
    ]);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ extraRemaining: 70, canGenerate: true });
    const packs = await t.db.select().from(extraGenerationPacks).where(eq(extraGenerationPacks.userId, user.id));
    expect(packs).toHaveLength(1);
    expect(packs[0]?.expiresAt.getTime()).toBe(clock.getTime() + 30 * 86_400_000);
    expect(await creditsOf(user.id)).toBe(0);
  });

  it('starts a $1/day subscription scheduled to become $2/day after 7 days, and keeps the status true from Stripe', async () => {
    const { user, cookie } = await buyer();
    const started = await injectJson(t.app, 'POST', '/api/payments/start-subscription', { cookie });
    expect(started.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    const subscription = stripe.subscriptions.get(row?.stripeSubscriptionId ?? '');
    if (!subscription) throw new Error('no subscription');
    expect(subscription.status).toBe('incomplete');
    const intro = stripe.prices.get(
      String((subscription.items as { data: Array<{ price: { id: string } }> }).data[0]?.price.id),
    );
    expect(intro).toMatchObject({ unit_amount: 100, recurring: { interval: 'day' } });
    const schedule = stripe.schedules.get(String(subscription.schedule));
    const phases = schedule?.phases as Array<{ items: Array<{ price: string }>; start_date: number; end_date: number }>;
    expect(phases).toHaveLength(2);
    expect(phases[0]?.items[0]?.price).toBe(intro?.id);
    expect((phases[0]?.end_date ?? 0) - (phases[0]?.start_date ?? 0)).toBe(7 * 86_400);
    expect(stripe.prices.get(phases[1]?.items[0]?.price ?? '')).toMatchObject({
      unit_amount: 200,
      recurring: { interval: 'day' },
    });
    expect(schedule?.end_behavior).toBe('release');

    // Asking again before paying offers the same unpaid subscription.
    const again = await injectJson(t.app, 'POST', '/api/payments/start-subscription', { cookie });
    expect(again.json().clientSecret).toBe(started.json().clientSecret);
    expect(stripe.subscriptions.size).toBe(1);

    // The invoice is paid: the webhook makes the user a subscriber with 15 generations today.
    const active = stripe.setSubscriptionStatus(subscription.id, 'active');
    expect((await deliver(stripe.event('customer.subscription.updated', active))).statusCode).toBe(200);
    const status = await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie });
    expect(status.json()).toMatchObject({
      subscriptionStatus: 'active',
      dailyUsed: 0,
      dailyLimit: 15,
      canGenerate: true,
    });
    expect((await injectJson(t.app, 'POST', '/api/payments/start-subscription', { cookie })).statusCode).toBe(409);

    // Unpaid renewals end it.
    stripe.setSubscriptionStatus(subscription.id, 'unpaid');
    const invoice = {
      id: 'in_renewal',
      object: 'invoice',
      customer: subscription.customer,
      parent: { subscription_details: { subscription: subscription.id } },
    };
    expect((await deliver(stripe.event('invoice.paid', invoice))).statusCode).toBe(200);
    expect((await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie })).json().subscriptionStatus).toBe(
      'inactive',
    );
    // The browser's confirmation reads the same truth from Stripe.
    stripe.setSubscriptionStatus(subscription.id, 'active');
    const confirmed = await injectJson(t.app, 'POST', '/api/payments/confirm', { cookie, body: {} });
    expect(confirmed.json().subscriptionStatus).toBe('active');
  });

  it("never lets Stripe change an administrator's unlimited status", async () => {
    const admin = await createUser(t.db, { subscriptionStatus: 'premium_unlimited' });
    const customer = { id: 'cus_admin', object: 'customer' };
    await t.db.update(users).set({ stripeCustomerId: customer.id }).where(eq(users.id, admin.id));
    await deliver(
      stripe.event('customer.subscription.deleted', {
        id: 'sub_old',
        object: 'subscription',
        status: 'active',
        customer: customer.id,
        metadata: {},
      }),
    );
    const [row] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(row?.subscriptionStatus).toBe('premium_unlimited');
  });
});

describe('without Stripe keys', () => {
  it("says who to ask for credits: the operator's contact (OPERATOR_CONTACT), in the public config and every refusal", async () => {
    const plain = await createTestApp({ OPERATOR_CONTACT: 'ops@videos.example.com' });
    try {
      const cookie = await signIn(plain.app, await createUser(plain.db));
      expect((await injectJson(plain.app, 'GET', '/api/payments/config')).json()).toEqual({
        enabled: false,
        publishableKey: null,
        operatorContact: 'ops@videos.example.com',
      });
      const refused = await injectJson(plain.app, 'POST', '/api/credits/payment-intent', {
        cookie,
        body: { credits: 10 },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({
        code: 'payments_disabled',
        message:
          'Payments are not set up on this server. To get credits, contact the operator: ops@videos.example.com.',
      });
    } finally {
      await plain.close();
    }
  });

  it('answers 503 payments_disabled on every payment call and keeps everything else working', async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain.db);
      const cookie = await signIn(plain.app, user);
      expect((await injectJson(plain.app, 'GET', '/api/payments/config')).json()).toEqual({
        enabled: false,
        publishableKey: null,
        operatorContact: null,
      });
      const calls: Array<[string, unknown]> = [
        ['/api/credits/checkout', { creditsAmount: 10 }],
        ['/api/credits/checkout-success', { sessionId: 'cs_1' }],
        ['/api/credits/payment-intent', { credits: 10 }],
        ['/api/credits/fulfill', { paymentIntentId: 'pi_1', credits: 10 }],
        ['/api/payments/start-subscription', undefined],
        ['/api/payments/extra-generations', { package: 'small' }],
        ['/api/payments/confirm', {}],
      ];
      for (const [url, body] of calls) {
        const response = await injectJson(plain.app, 'POST', url, { cookie, body });
        expect(response.statusCode, url).toBe(503);
        expect(response.json()).toMatchObject({
          code: 'payments_disabled',
          message: 'Payments are not set up on this server. To get credits, ask the person who runs it.',
        });
      }
      const webhook = await injectJson(plain.app, 'POST', '/api/stripe/webhook', {
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(webhook.statusCode).toBe(503);
      expect((await injectJson(plain.app, 'GET', '/api/user/generation-status', { cookie })).statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
