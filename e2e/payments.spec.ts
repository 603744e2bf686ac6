import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../tests/support/fake-stripe';
import { type RunningServer, registerAccount, startBuiltServer } from './support/app-server';
import { openPage, shoot, useBrowser } from './support/browser';
import { routeStripeJs } from './support/stripe-js-stand-in';

/**
 * The payment screens. The main app instance has no Stripe keys: its screens must say payments are
 * unavailable. A second instance gets keys and STRIPE_API_URL pointing at a local server that speaks
 * Stripe's API; in the browser, Stripe.js is replaced by a stand-in served through Playwright's request
 * routing (e2e/support/stripe-js-stand-in.ts), and Stripe's hosted Checkout page by a route that pays
 * the session at the fake and sends the browser back to the success URL, as Stripe would.
 */

const baseUrl = inject('baseUrl');
const browser = useBrowser();

/** A fresh regular account, signed in within the page's browser context. */
async function signUp(page: Page, origin: string): Promise<string> {
  const email = `buyer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const response = await page.request.post('/api/auth/register', {
    data: { email, password: 'buyer-password-1', firstName: 'Bea', lastName: 'Buyer' },
    headers: { origin },
  });
  expect(response.status()).toBe(201);
  return email;
}

async function balanceOf(page: Page): Promise<number> {
  const response = await page.request.get('/api/credits/balance');
  return ((await response.json()) as { credits: number }).credits;
}

describe('payment screens on a server without Stripe keys', () => {
  it('say payments are unavailable, and check the credits parameter', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    let stripeRequested = false;
    await context.route('https://js.stripe.com/**', (route) => {
      stripeRequested = true;
      return route.abort();
    });
    await signUp(page, baseUrl);

    await page.goto('/payment-checkout');
    await page.getByText('No credit amount specified').waitFor();
    await page.goto('/payment-checkout?credits=abc');
    await page.getByText('Invalid credit amount').waitFor();
    await page.getByRole('link', { name: 'Back to Credits' }).waitFor();

    await page.goto('/payment-checkout?credits=30');
    await page.getByText('Payment Unavailable').waitFor();
    await page.getByText('Payment system is not configured').waitFor();

    await page.goto('/subscribe');
    await page.getByText('Payment System Unavailable').waitFor();
    await page.getByText('Payment processing is currently disabled', { exact: true }).waitFor();
    await shoot(page, 'subscribe-unavailable');

    await page.goto('/credits');
    await page.getByText('Payment Unavailable').first().waitFor();
    expect(stripeRequested).toBe(false);
    assertNoPageErrors();
    await context.close();
  });
});

describe('payment screens with Stripe', () => {
  let stripe: FakeStripe;
  let server: RunningServer;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startBuiltServer({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_reelsmith_e2e',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2e',
      STRIPE_API_URL: stripe.url,
      // Balances here count purchases only: no sign-up grant.
      SIGNUP_CREDITS: '0',
    });
    // The first account of an installation is its (unlimited) administrator; buyers come after.
    await registerAccount(server.baseUrl, {
      email: 'owner@example.com',
      password: 'owner-password-1',
      firstName: 'Olive',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await stripe.close();
  });

  /** The newest PaymentIntent the app created at the fake. */
  const latestIntent = () => [...stripe.paymentIntents.values()].at(-1);

  it('goes from /credits to the embedded card form for 30 credits, pays, and credits the account once', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), server.baseUrl);
    await routeStripeJs(context);
    await signUp(page, server.baseUrl);

    await page.goto('/credits');
    await page
      .getByRole('button', { name: /30 Credits/ })
      .first()
      .click();
    const purchase = page.getByRole('link', { name: 'Purchase 30 Credits for $30' });
    await purchase.waitFor();
    await shoot(page, 'credits');
    await purchase.click();
    await page.waitForURL('**/payment-checkout?credits=30');
    await page.getByText('Complete Payment').first().waitFor();
    await page.getByText('30 Credits - $30.00 USD').waitFor();
    await page.getByTestId('stripe-stand-in').waitFor();
    const pay = page.getByRole('button', { name: 'Pay $30.00' });
    await pay.waitFor();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await shoot(page, 'payment-checkout');

    const intent = latestIntent();
    expect(intent).toMatchObject({ amount: 3000, metadata: { kind: 'credits', credits: '30' } });
    // Stripe would mark the PaymentIntent succeeded when the card is confirmed.
    stripe.setPaymentIntentStatus(String(intent?.id), 'succeeded');
    await pay.click();
    await expect.poll(() => balanceOf(page), { timeout: 10_000 }).toBe(30);
    // Reporting it again (a second click, a reload, the webhook) changes nothing.
    const again = await page.request.post('/api/credits/fulfill', {
      data: { paymentIntentId: intent?.id, credits: 30 },
      headers: { origin: server.baseUrl },
    });
    expect(await again.json()).toMatchObject({ creditsAdded: 30, alreadyCredited: true });
    expect(await balanceOf(page)).toBe(30);
    assertNoPageErrors();
    await context.close();
  });

  it('pays through the hosted Checkout and shows the success page', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), server.baseUrl);
    await routeStripeJs(context);
    await context.route('https://checkout.stripe.com/**', async (route) => {
      const sessionId = new URL(route.request().url()).pathname.split('/').pop() ?? '';
      const session = stripe.paySession(sessionId);
      const next = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId);
      await route.fulfill({ status: 303, headers: { location: next } });
    });
    await signUp(page, server.baseUrl);
    await page.goto('/credits');
    await page
      .getByRole('button', { name: /75 Credits/ })
      .first()
      .click();
    await page.getByRole('button', { name: /Stripe Checkout/i }).click();
    await page.waitForURL('**/payment-success?session_id=*');
    await page.getByText('Payment Successful!').waitFor();
    await page.getByText('75 credits have been added to your account').waitFor();
    await page.getByText('You can now generate 75 AI videos').waitFor();
    await page.getByText("What's Next").waitFor();
    await shoot(page, 'payment-success');
    expect(await balanceOf(page)).toBe(75);
    // A reload reports the same session again: still 75.
    await page.reload();
    await page.getByText('Payment Successful!').waitFor();
    expect(await balanceOf(page)).toBe(75);
    assertNoPageErrors();
    await context.close();
  });

  it('offers the subscription and the packs on /subscribe, and a bought pack shows as extra generations', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), server.baseUrl, {
      colorScheme: 'dark',
    });
    await routeStripeJs(context);
    await signUp(page, server.baseUrl);
    await page.goto('/subscribe');
    await page.getByText('Daily Subscription').first().waitFor();
    await expect.poll(() => page.getByText('Valid for 30 days').count()).toBe(3);
    await page.getByText('No Generations').waitFor();
    await shoot(page, 'subscribe');

    await page.getByRole('button', { name: 'Start Subscription' }).click();
    await page.getByText('Complete Your Subscription').waitFor();
    await page.getByText('$1/day for your first week, then $2/day with 15 daily generations').waitFor();
    await page.getByTestId('stripe-stand-in').waitFor();
    await shoot(page, 'subscribe-form');
    await page.getByRole('button', { name: 'Cancel Payment' }).click();
    await page.getByRole('button', { name: 'Start Subscription' }).waitFor();

    await page.getByRole('button', { name: 'Purchase Now' }).first().click();
    await page.getByText('Complete Your Purchase').waitFor();
    await page.getByText('Add extra generations to your account (valid for 30 days)').waitFor();
    await page.getByTestId('stripe-stand-in').waitFor();
    const intent = latestIntent();
    expect(intent).toMatchObject({ amount: 1000, metadata: { kind: 'extra_pack', pack: 'small' } });
    stripe.setPaymentIntentStatus(String(intent?.id), 'succeeded');
    await page.getByRole('button', { name: 'Complete Payment' }).click();
    await page.getByText('Payment Successful!').first().waitFor();
    await page.getByText('Can Generate').waitFor();
    const status = await (await page.request.get('/api/user/generation-status')).json();
    expect(status).toMatchObject({ extraRemaining: 30, canGenerate: true });
    assertNoPageErrors();
    await context.close();
  });
});
