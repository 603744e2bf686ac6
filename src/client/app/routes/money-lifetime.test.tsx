import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AdminUser } from '../../../shared/admin';
import type { GenerationRecord } from '../../../shared/generations';
import type { Receipt } from '../../../shared/money/billing-account';
import { browserNavigation } from '../../lib/browser-navigation';
import {
  balance,
  callsTo,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  renderAppWith,
  resetAfterTest,
  stubApi,
} from '../testing/render-app';
import { testModel } from '../../../../tests/support/model-info';

// The pages load lazily: load them before the tests, so none waits on a transform under load.
preloadPage(() =>
  Promise.all([
    import('./generator'),
    import('./subscribe'),
    import('./history'),
    import('./media'),
    import('./payment-success'),
    import('./account'),
    import('./admin'),
  ]),
);
afterEach(resetAfterTest);

const models = {
  // The whole entry GET /api/models answers: the generator prices with its credits.
  models: [testModel({ description: 'FFmpeg', aspectRatios: ['16:9'], isDefault: true })],
};

/** The generator's API; the page prices with the server's own price function and the catalogue. */
function generatorApi(status: { availableCredits: number; isUnlimited: boolean }) {
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: status.isUnlimited })),
    'GET /api/user/balance': () => balance({ ...status, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, models),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
  });
  return fetchMock;
}

describe('the generator prices what the server charges', () => {
  it('lists base, audio, enhancement and analysis, and says why the price changed when a word switched audio on', async () => {
    generatorApi({ availableCredits: 10, isUnlimited: false });
    renderApp('/generator');
    const list = await screen.findByLabelText('Cost breakdown');
    await waitFor(() => expect(within(list).getByText('Base video')).toBeDefined());
    expect(within(list).getByText('Audio')).toBeDefined();
    expect(within(list).getByText('AI prompt enhancement')).toBeDefined();
    expect(within(list).getByText('Image analysis')).toBeDefined();
    expect(within(list).getAllByText('+0.5 if used')).toHaveLength(2);
    expect(within(list).getByText('+2 if used')).toBeDefined();

    await userEvent.type(await screen.findByLabelText('Video Description'), 'A beach with calm music');
    expect(
      await screen.findByText(
        'Audio switched on because the description mentions "music" (+2 credits). Switch it off for a silent video.',
      ),
    ).toBeDefined();
    await waitFor(() => expect(within(list).getByText('+2')).toBeDefined());
    expect(within(list).getByText('3')).toBeDefined();

    // Switching audio off by hand removes the notice and the charge.
    await userEvent.click(screen.getByRole('switch', { name: 'Audio' }));
    expect(screen.getByTestId('audio-notice').textContent).toBe('');
    await waitFor(() => expect(within(list).getByText('+2 if used')).toBeDefined());
  });

  it('shows one ∞ symbol to an unlimited account and never sends it to Buy Credits', async () => {
    generatorApi({ availableCredits: 0, isUnlimited: true });
    renderApp('/generator');
    const badge = await screen.findByText('∞ Unlimited');
    expect(badge.textContent).toBe('∞ Unlimited');
    expect(badge.querySelector('svg')).toBeNull();
    expect(screen.queryByRole('link', { name: /Buy Credits/ })).toBeNull();
    expect(screen.getAllByRole('link', { name: /Media/ }).length).toBeGreaterThan(0);
  });
});

describe('/subscribe for a subscriber', () => {
  it('shows the next charge, opens the billing portal and cancels at once after saying so', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    let subscribed = true;
    const fetchMock = renderAppWith('/subscribe', {
      'GET /api/auth/user': () => json(200, createAuthUser({ subscriptionStatus: 'active' })),
      'GET /api/payments/config': () => json(200, { enabled: true, publishableKey: 'pk_test_1' }),
      'GET /api/user/balance': () =>
        balance(
          {},
          {
            dailyUsed: 2,
            dailyLimit: 15,
            extraRemaining: 0,
            subscriptionStatus: subscribed ? 'active' : 'inactive',
            canGenerate: true,
          },
        ),
      'GET /api/payments/subscription': () =>
        json(200, {
          subscription: subscribed
            ? { status: 'active', nextChargeAt: '2026-11-24T15:00:00.000Z', nextChargeCents: 100 }
            : { status: 'canceled', nextChargeAt: null, nextChargeCents: null },
          canManageBilling: true,
        }),
      'POST /api/payments/billing-portal': () => json(200, { url: 'https://billing.stripe.com/p/session/test_1' }),
      'POST /api/payments/cancel-subscription': () => {
        subscribed = false;
        return json(200, {
          dailyUsed: 2,
          dailyLimit: 15,
          extraRemaining: 0,
          subscriptionStatus: 'inactive',
          canGenerate: false,
        });
      },
    });
    const next = await screen.findByTestId('next-charge');
    expect(next.textContent).toContain('$1.00');

    await userEvent.click(screen.getByRole('button', { name: /Manage billing/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_1'));

    await userEvent.click(screen.getByRole('button', { name: /Cancel subscription/ }));
    expect(
      screen.getByText(
        'Cancelling ends your subscription now: you will not be charged again, and the daily generations left today end with it.',
      ),
    ).toBeDefined();
    expect(callsTo(fetchMock, '/api/payments/cancel-subscription')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel now' }));
    expect(await screen.findByText('No further charge is scheduled.')).toBeDefined();
    expect(postedBodies(fetchMock, '/api/payments/cancel-subscription')).toHaveLength(1);
    // Not a subscriber any more: the daily subscription is offered again.
    expect(await screen.findByRole('button', { name: 'Start Subscription' })).toBeDefined();
  });
});

const expiredJob: GenerationRecord = {
  id: 'job_expired',
  prompt: 'A lighthouse at dawn',
  status: 'completed',
  createdAt: new Date(Date.now() - 30 * 3600_000).toISOString(),
  creditsUsed: 1,
  duration: 10,
  model: 'local',
  hasAudio: false,
  progress: 100,
  progressStage: null,
  errorMessage: null,
  outputVideoUrl: null,
  posterUrl: null,
  watchPath: null,
  expiresAt: new Date(Date.now() - 6 * 3600_000).toISOString(),
};

describe('expired videos', () => {
  it('are Expired (with when) in the history, not counted as completed, without View Video, and removable', async () => {
    let jobs = [expiredJob];
    const fetchMock = renderAppWith('/history', {
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/video-generation': () => json(200, jobs),
      'DELETE /api/video-generation/job_expired': () => {
        jobs = [];
        return json(200, { message: 'Video deleted' });
      },
    });
    expect(await screen.findByText('1 video · 0 completed · 1 expired')).toBeDefined();
    expect(screen.getByText('Expired')).toBeDefined();
    expect(screen.getByText('Expired 6h ago')).toBeDefined();
    expect(screen.queryByRole('link', { name: /View Video/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Remove from list/ }));
    await waitFor(() => expect(callsTo(fetchMock, '/api/video-generation/job_expired')).toHaveLength(1));
    expect(await screen.findByText('No Videos Yet')).toBeDefined();
  });

  it('are listed apart on the media page, not in the Completed count, with nothing to play', async () => {
    renderAppWith('/media', {
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/video-generation': () =>
        json(200, [
          {
            id: 'job_expired',
            prompt: 'A lighthouse at dawn',
            status: 'completed',
            creditsUsed: 1,
            duration: 10,
            model: 'local',
            hasAudio: false,
            outputVideoUrl: null,
            posterUrl: null,
            createdAt: expiredJob.createdAt,
            expiresAt: expiredJob.expiresAt,
            progress: 100,
            progressStage: null,
            errorMessage: null,
          },
        ]),
    });
    expect(await screen.findByRole('tab', { name: /Completed \(0\)/ })).toBeDefined();
    const expired = await screen.findByRole('list', { name: 'Expired videos' });
    await userEvent.click(within(expired).getByRole('button', { name: 'A lighthouse at dawn' }));
    expect(await screen.findByText('This video has expired')).toBeDefined();
    expect(screen.getByRole('button', { name: /Download/ }).hasAttribute('disabled')).toBe(true);
  });
});

describe('payments off', () => {
  it('/payment-success says payments are unavailable instead of a 503', async () => {
    const fetchMock = renderAppWith('/payment-success?session_id=cs_1', {
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
      'POST /api/credits/checkout-success': () =>
        json(503, { code: 'payments_disabled', message: 'Payment processing is currently disabled' }),
    });
    expect(await screen.findByText('Payment Unavailable')).toBeDefined();
    expect(screen.queryByText(/Payment confirmation failed/)).toBeNull();
    expect(callsTo(fetchMock, '/api/credits/checkout-success')).toHaveLength(0);
  });
});

describe('/account', () => {
  it('lists the receipts with amount, status and the receipt link', async () => {
    const receipts: Receipt[] = [
      {
        id: 'pi_1',
        createdAt: '2026-11-20T10:00:00.000Z',
        kind: 'credits',
        description: '30 credits',
        amountCents: 3000,
        refundedCents: 1000,
        currency: 'usd',
        status: 'partially_refunded',
        receiptUrl: 'https://pay.stripe.com/receipts/payment/test_pi_1',
      },
      {
        id: 'pi_2',
        createdAt: '2026-11-21T10:00:00.000Z',
        kind: 'extra_pack',
        description: 'Small pack: 30 extra generations',
        amountCents: 1000,
        refundedCents: 0,
        currency: 'usd',
        status: 'paid',
        receiptUrl: null,
      },
    ];
    renderAppWith('/account', {
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/payments/receipts': () => json(200, { receipts }),
    });
    const list = await screen.findByRole('list', { name: 'Payments' });
    expect(screen.getByRole('heading', { name: 'Account' })).toBeDefined();
    expect(within(list).getByText('30 credits')).toBeDefined();
    expect(within(list).getByText('$30.00')).toBeDefined();
    expect(within(list).getByText('Partly refunded')).toBeDefined();
    expect(within(list).getByText('$10.00 back')).toBeDefined();
    expect(
      within(list)
        .getByRole('link', { name: /Receipt/ })
        .getAttribute('href'),
    ).toBe('https://pay.stripe.com/receipts/payment/test_pi_1');
    expect(within(list).getByText('Paid')).toBeDefined();
  });
});

describe('admin', () => {
  const me = createAuthUser({ id: '0b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a51', isAdmin: true, email: 'ada@example.com' });
  const self: AdminUser = {
    id: me.id,
    email: me.email,
    firstName: 'Ada',
    lastName: 'Byron',
    displayName: 'Ada Byron',
    isAdmin: true,
    createdAt: '2025-01-05T12:00:00.000Z',
    availableCredits: 12.5,
    totalCreditsUsed: 0.5,
    creditsLast30Days: 0,
    totalLifetimeCredits: 13,
    subscriptionStatus: 'premium_unlimited',
  };
  const payer: AdminUser = {
    ...self,
    id: '5e2d9c8b-1a3f-4c6d-8e9f-a0b1c2d3e4f5',
    email: 'payer@example.com',
    isAdmin: false,
    subscriptionStatus: 'active',
    hasStripeSubscription: true,
  };

  function renderAdmin() {
    return renderAppWith('/admin', {
      'GET /api/auth/user': () => json(200, me),
      'GET /api/admin/users': () => json(200, [self, payer]),
      'GET /api/admin/stats': () =>
        json(200, { totalUsers: 2, activeCredits: 25, creditsUsed: 1, creditsLast30Days: 0 }),
      [`PATCH /api/admin/users/${self.id}`]: () => json(200, { message: 'ada@example.com was updated.' }),
    });
  }

  it('edits credits exactly and asks before an administrator takes away their own unlimited status', async () => {
    const fetchMock = renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit ada@example.com' }));
    expect(screen.getByLabelText<HTMLInputElement>('Current credits').value).toBe('12.50');
    expect(screen.getByText('Now 12.50')).toBeDefined();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'inactive');
    await userEvent.click(screen.getByRole('button', { name: 'Save ada@example.com' }));
    expect(await screen.findByText(/You are changing your own status from Admin to Inactive/)).toBeDefined();
    expect(callsTo(fetchMock, `/api/admin/users/${self.id}`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Save ada@example.com' }));
    await waitFor(() => expect(callsTo(fetchMock, `/api/admin/users/${self.id}`)).toHaveLength(1));
  });

  it('warns in the delete confirmation of a user with an active subscription', async () => {
    renderAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete payer@example.com' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText(
        'This user has an active subscription: deleting them cancels it at Stripe first, so they are not charged again.',
      ),
    ).toBeDefined();
  });
});
