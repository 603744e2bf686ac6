import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { FakeStripe } from '../../../../tests/support/fake-stripe';
import { createStripeTestApp, type DeliverWebhook } from '../../../../tests/support/stripe-app';
import { adminAuditLog, users } from '../../db/schema';

let stripe: FakeStripe;
let t: TestApp;
let deliver: DeliverWebhook;

beforeAll(async () => {
  ({ t, stripe, deliver } = await createStripeTestApp());
});
afterAll(() => t.close());

const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

/** A user whose $1/day subscription Stripe has activated (its first invoice paid). */
async function subscriber() {
  const user = await createUser(t.db);
  const cookie = await signIn(t.app, user);
  expect((await injectJson(t.app, 'POST', '/api/payments/start-subscription', { cookie })).statusCode).toBe(200);
  const subscriptionId = (await rowOf(user.id))?.stripeSubscriptionId ?? '';
  const active = stripe.setSubscriptionStatus(subscriptionId, 'active');
  expect((await deliver(stripe.event('customer.subscription.updated', active))).statusCode).toBe(200);
  expect((await rowOf(user.id))?.subscriptionStatus).toBe('active');
  return { user, cookie, subscriptionId, activeSnapshot: active };
}

describe('managing the subscription on /subscribe', () => {
  it('shows the next charge (date and amount) and opens the billing portal for the customer', async () => {
    const { user, cookie, subscriptionId } = await subscriber();
    const details = await injectJson(t.app, 'GET', '/api/payments/subscription', { cookie });
    expect(details.statusCode).toBe(200);
    const item = (stripe.subscriptions.get(subscriptionId)?.items as { data: Array<{ current_period_end: number }> })
      .data[0];
    expect(details.json()).toEqual({
      subscription: {
        status: 'active',
        nextChargeAt: new Date((item?.current_period_end ?? 0) * 1000).toISOString(),
        nextChargeCents: 100,
      },
      canManageBilling: true,
    });

    const portal = await injectJson(t.app, 'POST', '/api/payments/billing-portal', { cookie });
    expect(portal.statusCode).toBe(200);
    const session = [...stripe.portalSessions.values()].at(-1);
    expect(portal.json()).toEqual({ url: session?.url });
    expect(session).toMatchObject({
      customer: (await rowOf(user.id))?.stripeCustomerId,
      return_url: 'http://localhost:3000/subscribe',
    });
  });

  it('cancels at once: Stripe stops charging, the user is inactive, and late events never re-activate it', async () => {
    const { user, cookie, subscriptionId, activeSnapshot } = await subscriber();
    const cancelled = await injectJson(t.app, 'POST', '/api/payments/cancel-subscription', { cookie });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ subscriptionStatus: 'inactive' });
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(
      true,
    );
    const details = await injectJson(t.app, 'GET', '/api/payments/subscription', { cookie });
    expect(details.json().subscription).toMatchObject({
      status: 'canceled',
      nextChargeAt: null,
      nextChargeCents: null,
    });

    // A renewal invoice paid just before the cancellation, delivered after it.
    const invoice = {
      id: 'in_late',
      object: 'invoice',
      customer: activeSnapshot.customer,
      parent: { subscription_details: { subscription: subscriptionId } },
    };
    expect((await deliver(stripe.event('invoice.paid', invoice))).statusCode).toBe(200);
    // The 'updated' event of an earlier moment (status active), delivered late.
    expect(
      (await deliver(stripe.event('customer.subscription.updated', { ...activeSnapshot, status: 'active' })))
        .statusCode,
    ).toBe(200);
    expect((await rowOf(user.id))?.subscriptionStatus).toBe('inactive');
    // The deleted event Stripe sends after the cancellation keeps it so.
    await deliver(stripe.event('customer.subscription.deleted', { ...activeSnapshot, status: 'canceled' }));
    expect((await rowOf(user.id))?.subscriptionStatus).toBe('inactive');

    const again = await injectJson(t.app, 'POST', '/api/payments/cancel-subscription', { cookie });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('no_subscription');
  });

  it('answers 409 to a user with nothing to cancel or manage', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    expect((await injectJson(t.app, 'GET', '/api/payments/subscription', { cookie })).json()).toEqual({
      subscription: null,
      canManageBilling: false,
    });
    expect((await injectJson(t.app, 'POST', '/api/payments/cancel-subscription', { cookie })).statusCode).toBe(409);
    expect((await injectJson(t.app, 'POST', '/api/payments/billing-portal', { cookie })).json().code).toBe(
      'no_billing_account',
    );
    expect((await injectJson(t.app, 'POST', '/api/payments/cancel-subscription')).statusCode).toBe(401);
  });
});

describe('administrators and subscriptions', () => {
  async function adminCookie() {
    const admin = await createUser(t.db, { isAdmin: true, subscriptionStatus: 'premium_unlimited' });
    return { admin, cookie: await signIn(t.app, admin) };
  }

  it('setting a subscriber inactive cancels at Stripe first, and the audit says so', async () => {
    const { admin, cookie } = await adminCookie();
    const { user, subscriptionId } = await subscriber();
    const listed = await injectJson(t.app, 'GET', `/api/admin/users?q=${encodeURIComponent(user.email)}`, { cookie });
    expect(listed.json()[0]).toMatchObject({ email: user.email, hasStripeSubscription: true });
    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie,
      body: {
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        availableCredits: 0,
        totalCreditsUsed: 0,
        subscriptionStatus: 'inactive',
        original: { subscriptionStatus: 'active', availableCredits: 0, totalCreditsUsed: 0, email: user.email },
      },
    });
    expect(response.statusCode).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect((await rowOf(user.id))?.subscriptionStatus).toBe('inactive');
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['subscription.cancel_at_stripe', 'user.update']);
    expect(audit.find((a) => a.action === 'subscription.cancel_at_stripe')).toMatchObject({
      actorUserId: admin.id,
      after: expect.objectContaining({ stripeSubscriptionId: subscriptionId, stripeStatus: 'canceled' }),
    });
  });

  it('deleting a subscriber cancels at Stripe first; one Stripe does not know does not block it', async () => {
    const { cookie } = await adminCookie();
    const { user, subscriptionId } = await subscriber();
    const broken = await createUser(t.db);
    await t.db
      .update(users)
      .set({ stripeSubscriptionId: 'sub_unknown_elsewhere', subscriptionStatus: 'active' })
      .where(eq(users.id, broken.id));
    // A subscription Stripe has never heard of cannot be charging: the deletion goes ahead.
    expect((await injectJson(t.app, 'DELETE', `/api/admin/users/${broken.id}`, { cookie })).statusCode).toBe(200);

    const response = await injectJson(t.app, 'DELETE', `/api/admin/users/${user.id}`, { cookie });
    expect(response.statusCode).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(await rowOf(user.id)).toBeUndefined();
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['subscription.cancel_at_stripe', 'user.delete']);
  });

  it('a server without Stripe keys refuses to delete a user whose subscription it cannot stop', async () => {
    const plain = await createTestApp();
    try {
      const admin = await createUser(plain.db, { isAdmin: true, subscriptionStatus: 'premium_unlimited' });
      const cookie = await signIn(plain.app, admin);
      const payer = await createUser(plain.db, { subscriptionStatus: 'active' });
      await plain.db.update(users).set({ stripeSubscriptionId: 'sub_running' }).where(eq(users.id, payer.id));
      const response = await injectJson(plain.app, 'DELETE', `/api/admin/users/${payer.id}`, { cookie });
      expect(response.statusCode).toBe(503);
      expect((await plain.db.select().from(users).where(eq(users.id, payer.id))).length).toBe(1);
    } finally {
      await plain.close();
    }
  });
});
