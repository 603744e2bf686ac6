import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import type { GenerationStatus } from '../../../shared/money/plans';
import { browserNavigation } from '../../lib/browser-navigation';
import { installFakeStripe, removeFakeStripe } from '../testing/fake-stripe';
import {
  type ApiRoutes,
  balance,
  createAuthUser,
  findEnabledButton,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
} from '../testing/render-app';

function generationStatus(overrides: Partial<GenerationStatus> = {}): GenerationStatus {
  return {
    dailyUsed: 0,
    dailyLimit: 15,
    extraRemaining: 0,
    subscriptionStatus: 'inactive',
    canGenerate: false,
    ...overrides,
  };
}

function renderSubscribe(overrides: ApiRoutes = {}, path = '/subscribe') {
  return renderAppWith(path, {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({}, generationStatus()),
    'GET /api/payments/config': () => json(200, { enabled: true, publishableKey: 'pk_test_123' }),
    ...overrides,
  });
}

preloadPage(() => import('./subscribe'));
afterEach(resetAfterTest);
afterEach(removeFakeStripe);

describe('/subscribe', () => {
  it('shows the status, the daily subscription and the three packs to a user without a subscription', async () => {
    renderSubscribe({
      'GET /api/user/balance': () => balance({}, generationStatus({ dailyUsed: 3, extraRemaining: 12 })),
    });

    expect(await screen.findByText('3/15')).toBeDefined();
    expect(screen.getByText('12')).toBeDefined();
    expect(screen.getByText('Inactive')).toBeDefined();
    expect(screen.getByText('No Generations')).toBeDefined();
    expect(screen.getByText(/Daily generations reset at 3am EST \(next: .+\)\./)).toBeDefined();

    expect(await screen.findByText('Daily Subscription')).toBeDefined();
    for (const text of [
      '15 generations daily',
      'Resets at 3am EST',
      'Use them or lose them',
      'Full AI video generation access',
      'High-quality output videos',
      'Multiple file format support',
    ]) {
      expect(screen.getByText(text)).toBeDefined();
    }
    expect(screen.getByText('$1 per day for the first week, then $2/day')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Start Subscription' })).toBeDefined();

    const packs = screen.getByRole('region', { name: 'Extra Generation Packs' });
    expect(within(packs).getAllByRole('button', { name: 'Purchase Now' })).toHaveLength(3);
    expect(within(packs).getAllByText('Valid for 30 days')).toHaveLength(3);
    for (const [generations, price] of [
      ['30', '$10'],
      ['70', '$20'],
      ['175', '$50'],
    ]) {
      expect(within(packs).getByText(`${generations} extra generations`)).toBeDefined();
      expect(within(packs).getByText(price!)).toBeDefined();
    }
    expect(screen.getByText(/Payments are secure and processed by Stripe/)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeDefined();
  });

  it('logs out with a POST, never a GET link, and goes home', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    onTestFinished(() => assign.mockRestore());
    const fetchMock = renderSubscribe({
      'POST /api/auth/logout': () => json(200, { message: 'You have been signed out.' }),
    });

    expect(screen.queryByRole('link', { name: 'Log out' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(postedBodies(fetchMock, '/api/auth/logout')).toEqual([undefined]);
  });

  it('offers no subscription to an active subscriber, and shows an administrator as Admin', async () => {
    renderSubscribe({
      'GET /api/user/balance': () => balance({}, generationStatus({ subscriptionStatus: 'active', canGenerate: true })),
    });
    expect(await screen.findByText('Can Generate')).toBeDefined();
    expect(screen.getByText('Active')).toBeDefined();
    expect(await screen.findAllByRole('button', { name: 'Purchase Now' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Start Subscription' })).toBeNull();
    cleanup();

    renderSubscribe({
      'GET /api/user/balance': () =>
        balance({}, generationStatus({ subscriptionStatus: 'premium_unlimited', canGenerate: true })),
    });
    expect(await screen.findByText('Admin')).toBeDefined();
    expect(await screen.findAllByRole('button', { name: 'Purchase Now' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Start Subscription' })).toBeNull();
  });

  it('offers no subscription on a trial either: the server counts a trial as subscribed and would refuse it', async () => {
    renderSubscribe({
      'GET /api/user/balance': () => balance({}, generationStatus({ subscriptionStatus: 'trial', canGenerate: true })),
    });
    expect(await screen.findByText('Trial')).toBeDefined();
    expect(await screen.findAllByRole('button', { name: 'Purchase Now' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Start Subscription' })).toBeNull();
  });

  it("says 'Payment System Unavailable' on a server without Stripe keys", async () => {
    renderSubscribe({ 'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }) });
    expect(await screen.findByText('Payment System Unavailable')).toBeDefined();
    expect(screen.getByText('Payment processing is currently disabled')).toBeDefined();
    expect(screen.getByText(/To get credits, ask the person who runs this server\./)).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Purchase Now' })).toBeNull();
    expect(screen.getByText('0/15')).toBeDefined();
  });

  it('opens the card form for the subscription, and Cancel Payment returns to the offers', async () => {
    installFakeStripe();
    const fetchMock = renderSubscribe({
      'POST /api/payments/start-subscription': () => json(200, { clientSecret: 'pi_sub_secret_1' }),
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Start Subscription' }));
    expect(await screen.findByText('Complete Your Subscription')).toBeDefined();
    expect(screen.getByText('$1/day for your first week, then $2/day with 15 daily generations')).toBeDefined();
    await findEnabledButton('Complete Payment');
    expect(screen.queryByRole('button', { name: 'Purchase Now' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel Payment' }));
    expect(await screen.findByRole('button', { name: 'Start Subscription' })).toBeDefined();
    expect(postedBodies(fetchMock, '/api/payments/start-subscription')).toHaveLength(1);
  });

  it('buys a pack: pays, asks the server to confirm, refetches the status and says so', async () => {
    const stripe = installFakeStripe();
    let status = generationStatus();
    const fetchMock = renderSubscribe({
      'GET /api/user/balance': () => balance({}, status),
      'POST /api/payments/extra-generations': () => json(200, { clientSecret: 'pi_pack_secret_1' }),
      'POST /api/payments/confirm': () => {
        status = generationStatus({ extraRemaining: 30, canGenerate: true });
        return json(200, status);
      },
    });

    await userEvent.click((await screen.findAllByRole('button', { name: 'Purchase Now' }))[0]!);
    expect(await screen.findByText('Complete Your Purchase')).toBeDefined();
    expect(screen.getByText('Add extra generations to your account (valid for 30 days)')).toBeDefined();
    await userEvent.click(await findEnabledButton('Complete Payment'));

    expect(await screen.findByText('Payment Successful!')).toBeDefined();
    expect(await screen.findByText('Can Generate')).toBeDefined();
    expect(screen.getByText('30')).toBeDefined();
    expect(postedBodies(fetchMock, '/api/payments/extra-generations')).toEqual([{ package: 'small' }]);
    expect(postedBodies(fetchMock, '/api/payments/confirm')).toEqual([{ paymentIntentId: 'pi_pack' }]);
    expect(stripe.confirmPayment).toHaveBeenCalledWith(
      expect.objectContaining({
        confirmParams: { return_url: `${window.location.origin}/subscribe?success=true` },
        redirect: 'if_required',
      }),
    );
  });

  it("shows the provider's reason when the card is refused, and 'An unexpected error occurred' when confirming throws", async () => {
    const stripe = installFakeStripe({ confirmResult: { error: { message: 'Your card has insufficient funds.' } } });
    renderSubscribe({ 'POST /api/payments/start-subscription': () => json(200, { clientSecret: 'pi_sub_secret_1' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Start Subscription' }));
    await userEvent.click(await findEnabledButton('Complete Payment'));
    expect(await screen.findByText('Payment Failed')).toBeDefined();
    expect(screen.getByText('Your card has insufficient funds.')).toBeDefined();

    stripe.confirmPayment.mockRejectedValueOnce(new Error('network down'));
    await userEvent.click(screen.getByRole('button', { name: 'Complete Payment' }));
    expect(await screen.findByText('An unexpected error occurred')).toBeDefined();
    expect(screen.getByText('Payment Error')).toBeDefined();
  });

  it("toasts 'Unauthorized' on a 401 and sends the user to sign in half a second later", async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    onTestFinished(() => assign.mockRestore());
    renderSubscribe({
      'POST /api/payments/start-subscription': () =>
        json(401, { code: 'unauthorized', message: 'Please sign in to continue' }),
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Start Subscription' }));
    expect(await screen.findByText('Unauthorized')).toBeDefined();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeDefined();
    expect(assign).not.toHaveBeenCalled();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
  });

  it("toasts 'Failed to initialize payment' on other failures, and switches to unavailable on payments_disabled", async () => {
    let answer = json(409, { code: 'already_subscribed', message: 'You already have a subscription' });
    renderSubscribe({ 'POST /api/payments/extra-generations': () => answer });

    await userEvent.click((await screen.findAllByRole('button', { name: 'Purchase Now' }))[1]!);
    expect(await screen.findByText('Failed to initialize payment')).toBeDefined();
    expect(screen.getByText('Error')).toBeDefined();

    answer = json(503, { code: 'payments_disabled', message: 'Payment processing is currently disabled' });
    await userEvent.click(screen.getAllByRole('button', { name: 'Purchase Now' })[1]!);
    expect(await screen.findByText('Payment System Unavailable')).toBeDefined();
  });

  it('confirms a payment Stripe sent back to /subscribe?success=true, once, and tidies the address', async () => {
    const fetchMock = renderSubscribe(
      {
        'POST /api/payments/confirm': () =>
          json(200, generationStatus({ subscriptionStatus: 'active', canGenerate: true })),
      },
      '/subscribe?success=true&payment_intent=pi_9&redirect_status=succeeded',
    );
    expect(await screen.findByText('Payment Successful!')).toBeDefined();
    await waitFor(() =>
      expect(postedBodies(fetchMock, '/api/payments/confirm')).toEqual([{ paymentIntentId: 'pi_9' }]),
    );
    expect(window.location.search).toBe('');
  });
});
