import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, useBrowser } from './support/browser';

/**
 * Issue 19's screens in Chromium. The main instance has no Stripe keys: its /credits and
 * /payment-success must offer nothing to buy at phone width. The other screens are drawn from API
 * answers given through Playwright's routing (a subscriber, expired videos, receipts, the admin
 * table), to look at them at 390 and 1440 px, light and dark.
 */

const baseUrl = inject('baseUrl');
const browser = useBrowser();

async function signUp(page: Page): Promise<void> {
  const email = `money-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  const response = await page.request.post('/api/auth/register', {
    data: { email, password: 'money-password-1', firstName: 'Mo', lastName: 'Ney' },
    headers: { origin: baseUrl },
  });
  expect(response.status()).toBe(201);
}

/** Answers GET `path` (any query) with `body` (JSON) in this page. */
async function answer(page: Page, path: string, body: unknown, method = 'GET'): Promise<void> {
  await page.route(
    (url) => url.pathname === path,
    (route) =>
      route.request().method() === method
        ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) })
        : route.fallback(),
  );
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

describe('payments off, at 390 px', () => {
  it('/credits shows the packages as information only, and /payment-success no 503', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 390, height: 844 },
    });
    await signUp(page);
    await page.goto('/credits');
    await page.getByText('Payment Unavailable').first().waitFor();
    const packages = page.getByRole('list', { name: 'Credit packages' });
    await packages.getByText('30 Credits').waitFor();
    expect(await packages.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Purchase|Pay on Stripe/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /Purchase/ }).count()).toBe(0);
    expect(await page.getByText(/processed by Stripe/).count()).toBe(0);
    await shoot(page, 'i19-credits-payments-off');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/payment-success?session_id=cs_test_1');
    await page.getByText('Payment Unavailable').waitFor();
    expect(await page.getByText(/Payment confirmation failed/).count()).toBe(0);
    await shoot(page, 'i19-payment-success-payments-off');
    assertNoPageErrors();
    await context.close();
  });
});

describe("issue 19's screens", () => {
  it('the generator breakdown and the audio notice', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signUp(page);
    await page.goto('/generator');
    await page.getByLabel('Video Description').fill('A beach at sunset with calm music');
    await page.getByText('Audio switched on because the description mentions "music"').waitFor();
    await page.getByLabel('Cost breakdown').getByText('AI prompt enhancement').waitFor();
    await page.getByText('Audio switched on').scrollIntoViewIfNeeded();
    await shoot(page, 'i19-generator-audio-notice');
    await page.getByLabel('Cost breakdown').scrollIntoViewIfNeeded();
    await shoot(page, 'i19-generator-breakdown');
    assertNoPageErrors();
    await context.close();
  });

  it('a subscriber on /subscribe, expired videos, receipts and the admin table', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signUp(page);
    // These screens are drawn from the answers below: the live event stream, which would bring the
    // server's real state (no subscription, no videos), stays closed.
    await page.route(
      (url) => url.pathname === '/api/events',
      (route) => route.abort(),
    );
    await answer(page, '/api/payments/config', { enabled: true, publishableKey: 'pk_test_shots' });
    await answer(page, '/api/user/balance', {
      status: { availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN', planName: 'Daily Subscription' },
      generationStatus: {
        dailyUsed: 3,
        dailyLimit: 15,
        extraRemaining: 0,
        subscriptionStatus: 'active',
        canGenerate: true,
      },
    });
    await answer(page, '/api/payments/subscription', {
      subscription: {
        status: 'active',
        nextChargeAt: new Date(Date.now() + 9 * 3600_000).toISOString(),
        nextChargeCents: 100,
      },
      canManageBilling: true,
    });
    await page.goto('/subscribe');
    await page.getByTestId('next-charge').waitFor();
    await page.getByRole('button', { name: /Cancel subscription/ }).click();
    await page.getByRole('button', { name: 'Cancel now' }).waitFor();
    await shoot(page, 'i19-subscribe-manage');

    const expired = {
      id: '11111111-1111-4111-8111-111111111111',
      status: 'completed',
      createdAt: hoursAgo(30),
      creditsUsed: 1,
      duration: 10,
      hasAudio: false,
      progress: 100,
      errorMessage: null,
      outputVideoUrl: null,
      expiresAt: hoursAgo(6),
    };
    await answer(page, '/api/video-generation', [
      { ...expired, prompt: 'A lighthouse at dawn, waves below', model: 'local', posterUrl: null, progressStage: null },
    ]);
    await page.goto('/history');
    await page.getByText('1 video · 0 completed · 1 expired').waitFor();
    await shoot(page, 'i19-history-expired');
    await page.goto('/media');
    await page.getByRole('list', { name: 'Expired videos' }).getByRole('button').first().click();
    await page.getByText('This video has expired').waitFor();
    await shoot(page, 'i19-media-expired');
    await page.goto('/dashboard');
    await page.getByText('Expired', { exact: true }).first().waitFor();
    await shoot(page, 'i19-dashboard-expired');

    await answer(page, '/api/payments/receipts', {
      receipts: [
        {
          id: 'pi_1',
          createdAt: hoursAgo(50),
          kind: 'credits',
          description: '30 credits',
          amountCents: 3000,
          refundedCents: 1000,
          currency: 'usd',
          status: 'partially_refunded',
          receiptUrl: 'https://pay.stripe.com/receipts/payment/test_1',
        },
        {
          id: 'pi_2',
          createdAt: hoursAgo(20),
          kind: 'extra_pack',
          description: 'Small pack: 30 extra generations',
          amountCents: 1000,
          refundedCents: 0,
          currency: 'usd',
          status: 'paid',
          receiptUrl: null,
        },
      ],
    });
    await page.goto('/account');
    await page.getByRole('list', { name: 'Payments' }).waitFor();
    await shoot(page, 'i19-account-receipts');

    const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string; email: string };
    await answer(page, '/api/auth/user', { ...me, isAdmin: true, subscriptionStatus: 'premium_unlimited' });
    await answer(page, '/api/admin/stats', {
      totalUsers: 2,
      activeCredits: 25.5,
      creditsUsed: 1.5,
      creditsLast30Days: 0,
    });
    await answer(page, '/api/admin/users', [
      {
        id: me.id,
        email: me.email,
        firstName: 'Mo',
        lastName: 'Ney',
        displayName: 'Mo Ney',
        isAdmin: true,
        createdAt: hoursAgo(2),
        availableCredits: 12.5,
        totalCreditsUsed: 0.5,
        creditsLast30Days: 0,
        totalLifetimeCredits: 13,
        subscriptionStatus: 'premium_unlimited',
      },
      {
        id: '22222222-2222-4222-8222-222222222222',
        email: 'payer@example.com',
        firstName: 'Pay',
        lastName: 'Er',
        displayName: 'Pay Er',
        isAdmin: false,
        createdAt: hoursAgo(40),
        availableCredits: 13,
        totalCreditsUsed: 1,
        creditsLast30Days: 10,
        totalLifetimeCredits: 14,
        subscriptionStatus: 'active',
        hasStripeSubscription: true,
      },
    ]);
    await page.goto('/admin');
    await page.getByRole('button', { name: `Edit ${me.email}` }).click();
    await page.getByLabel('Status').selectOption('inactive');
    await page.getByRole('button', { name: `Save ${me.email}` }).click();
    await page.getByText(/You are changing your own status/).waitFor();
    await shoot(page, 'i19-admin-self-confirm');
    await page.getByRole('button', { name: `Cancel editing ${me.email}` }).click();
    await page.getByRole('button', { name: 'Delete payer@example.com' }).click();
    await page.getByText('This user has an active subscription').waitFor();
    await shoot(page, 'i19-admin-delete-warning');
    assertNoPageErrors();
    await context.close();
  });
});
