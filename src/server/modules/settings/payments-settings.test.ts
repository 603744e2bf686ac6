import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { type FakeStripe, startFakeStripe } from '../../../../tests/support/fake-stripe';
import type { InstallationSettings } from '../../../shared/installation-settings';
import { installationSettings } from '../../db/schema';

// Payments connected from the browser (issue 45): Stripe's keys, tried against the Stripe stand-in
// (tests/support/fake-stripe.ts, Stripe's wire format, the real `stripe` SDK pointed at it) with a
// balance read, then kept sealed; purchases work at once, and stop when the keys are removed.

let stripe: FakeStripe;
let t: TestApp;
let admin: string;
let customer: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  // Only Stripe's address (as a test points the SDK at its stand-in); no keys.
  t = await createTestApp({ STRIPE_API_URL: stripe.url });
  admin = await signIn(t.app, await createUser(t.db, { isAdmin: true }));
  customer = await signIn(t.app, await createUser(t.db, { creditsHundredths: 100 }));
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const paymentsConfig = async () =>
  (await injectJson(t.app, 'GET', '/api/payments/config', { cookie: customer })).json<{
    enabled: boolean;
    publishableKey: string | null;
  }>();
const putKeys = (body: unknown, cookie = admin) =>
  injectJson(t.app, 'PUT', '/api/admin/settings/payments', { cookie, body });

describe('Stripe keys from the browser', () => {
  it('refuses keys that cannot be Stripe keys before asking Stripe', async () => {
    expect((await putKeys({ secretKey: stripe.secretKey, publishableKey: 'pk_live_x' })).json().message).toContain(
      'different modes',
    );
    expect((await putKeys({ secretKey: 'not-a-key', publishableKey: 'pk_test_x' })).statusCode).toBe(400);
    expect((await putKeys({ secretKey: stripe.secretKey, publishableKey: 'pk_test_x', extra: 1 })).statusCode).toBe(
      400,
    );
    expect((await putKeys({ secretKey: stripe.secretKey, publishableKey: 'pk_test_x' }, customer)).statusCode).toBe(
      403,
    );
    expect(stripe.requests.filter((r) => r.path === '/v1/balance')).toHaveLength(0);
  });

  it("refuses a secret key Stripe does not know, with Stripe's reason", async () => {
    const response = await putKeys({ secretKey: 'sk_test_unknown_000', publishableKey: 'pk_test_reelsmith' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'provider_key_refused' });
    expect(response.json().message).toMatch(/^Stripe refused this: Invalid API Key provided.*Nothing was saved\.$/);
    expect(await t.db.select().from(installationSettings)).toEqual([]);
    expect(await paymentsConfig()).toMatchObject({ enabled: false, publishableKey: null });
  });

  it('turns payments on at once with keys Stripe accepts, keeps them sealed, and off again when removed', async () => {
    const balanceReads = () => stripe.requests.filter((r) => r.path === '/v1/balance').length;
    const readsBefore = balanceReads();
    const response = await putKeys({
      secretKey: stripe.secretKey,
      publishableKey: 'pk_test_reelsmith',
      webhookSecret: 'whsec_from_the_dashboard',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<InstallationSettings>().payments).toMatchObject({
      source: 'saved',
      mode: 'test',
      webhookSecret: true,
      webhookUrl: 'http://localhost:3000/api/stripe/webhook',
    });
    expect(balanceReads() - readsBefore).toBe(1);
    const [row] = await t.db.select().from(installationSettings);
    expect(JSON.stringify(row)).not.toContain(stripe.secretKey);
    expect(JSON.stringify(row)).not.toContain('whsec_from_the_dashboard');
    expect(await paymentsConfig()).toEqual({
      enabled: true,
      publishableKey: 'pk_test_reelsmith',
      operatorContact: null,
    });

    // A purchase goes to Stripe with the saved key, with no restart.
    const intent = await injectJson(t.app, 'POST', '/api/credits/payment-intent', {
      cookie: customer,
      body: { credits: 10 },
    });
    expect(intent.statusCode, intent.body).toBe(200);
    expect(stripe.paymentIntents.size).toBe(1);

    const removed = await injectJson(t.app, 'DELETE', '/api/admin/settings/payments', { cookie: admin });
    expect(removed.json<InstallationSettings>().payments).toMatchObject({ source: 'none', mode: null });
    expect(await paymentsConfig()).toMatchObject({ enabled: false, publishableKey: null });
    const refused = await injectJson(t.app, 'POST', '/api/credits/payment-intent', {
      cookie: customer,
      body: { credits: 10 },
    });
    expect(refused.statusCode).toBe(503);
  });
});
