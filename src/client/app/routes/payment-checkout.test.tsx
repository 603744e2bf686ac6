import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import { installFakeStripe, removeFakeStripe } from '../testing/fake-stripe';
import {
  type ApiRoutes,
  createAuthUser,
  findEnabledButton,
  holdRequests,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  resetAfterTest,
  stubApi,
} from '../testing/render-app';

const intent = { clientSecret: 'pi_1_secret_abc', paymentIntentId: 'pi_1', credits: 30, amountCents: 3000 };

function stubCheckout(overrides: ApiRoutes = {}) {
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/payments/config': () => json(200, { enabled: true, publishableKey: 'pk_test_123' }),
    'POST /api/credits/payment-intent': () => json(200, intent),
    ...overrides,
  });
}

function renderCheckout(path: string, overrides: ApiRoutes = {}) {
  const fetchMock = stubCheckout(overrides);
  renderApp(path);
  return fetchMock;
}

preloadPage(() => import('./payment-checkout'));
afterEach(resetAfterTest);
afterEach(removeFakeStripe);

describe('/payment-checkout', () => {
  it('refuses a missing or invalid amount with a way back to the credits', async () => {
    const stripe = installFakeStripe();
    const fetchMock = renderCheckout('/payment-checkout');
    expect(await screen.findByText('No credit amount specified')).toBeDefined();
    expect(screen.getByText('Payment Error')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Credits' }).getAttribute('href')).toBe('/credits');
    cleanup();

    renderApp('/payment-checkout?credits=abc');
    expect(await screen.findByText('Invalid credit amount')).toBeDefined();
    expect(postedBodies(fetchMock, '/api/credits/payment-intent')).toEqual([]);
    expect(stripe.loader).not.toHaveBeenCalled();
  });

  it("says 'Payment Unavailable' on a server without Stripe keys, and never loads Stripe", async () => {
    const stripe = installFakeStripe();
    renderCheckout('/payment-checkout?credits=30', {
      'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    });
    expect(await screen.findByText('Payment Unavailable')).toBeDefined();
    expect(screen.getByText('Payment system is not configured')).toBeDefined();
    expect(stripe.loader).not.toHaveBeenCalled();
  });

  it("shows 'Preparing Payment' while the PaymentIntent is created", async () => {
    installFakeStripe();
    holdRequests(stubCheckout(), '/api/credits/payment-intent');
    renderApp('/payment-checkout?credits=30');
    expect(await screen.findByText('Preparing Payment')).toBeDefined();
  });

  it('goes back to the credits on Cancel', async () => {
    installFakeStripe();
    renderCheckout('/payment-checkout?credits=30');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(window.location.pathname).toBe('/credits'));
  });

  it('creates one PaymentIntent, shows the card form, pays, credits the account and moves on to the dashboard', async () => {
    const stripe = installFakeStripe();
    const fetchMock = renderCheckout('/payment-checkout?credits=30', {
      'POST /api/credits/fulfill': () => json(200, { creditsAdded: 30, alreadyCredited: false }),
    });

    expect(await screen.findByText('Complete Payment')).toBeDefined();
    expect(screen.getByText('30 Credits - $30.00 USD')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDefined();
    const pay = await findEnabledButton('Pay $30.00');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeDefined();
    expect(stripe.loader).toHaveBeenCalledWith('pk_test_123');
    expect(stripe.elements).toHaveBeenCalledWith(
      expect.objectContaining({
        clientSecret: 'pi_1_secret_abc',
        appearance: expect.objectContaining({ theme: 'stripe' }),
      }),
    );

    await userEvent.click(pay);

    expect(await screen.findByText('Payment Successful!', { selector: 'h2' })).toBeDefined();
    expect(stripe.confirmPayment).toHaveBeenCalledWith(
      expect.objectContaining({
        confirmParams: { return_url: `${window.location.origin}/credits` },
        redirect: 'if_required',
      }),
    );
    expect(postedBodies(fetchMock, '/api/credits/payment-intent')).toEqual([{ credits: 30 }]);
    expect(postedBodies(fetchMock, '/api/credits/fulfill')).toEqual([{ paymentIntentId: 'pi_1', credits: 30 }]);
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });

  it("shows Stripe's reason when the payment fails, and the fallback when it gives none", async () => {
    const stripe = installFakeStripe({ confirmResult: { error: { message: 'Your card was declined.' } } });
    renderCheckout('/payment-checkout?credits=30');
    await userEvent.click(await findEnabledButton('Pay $30.00'));
    expect(await screen.findByText('Payment Failed')).toBeDefined();
    expect(screen.getByText('Your card was declined.')).toBeDefined();

    stripe.confirmPayment.mockResolvedValueOnce({ error: {} });
    await userEvent.click(screen.getByRole('button', { name: 'Pay $30.00' }));
    expect(await screen.findByText('Payment could not be processed.')).toBeDefined();
  });

  it('tells the buyer the credits are pending when the payment went through but fulfilment failed', async () => {
    installFakeStripe();
    renderCheckout('/payment-checkout?credits=30', {
      'POST /api/credits/fulfill': () =>
        json(502, { code: 'payment_provider_error', message: 'Stripe is unreachable' }),
    });
    await userEvent.click(await findEnabledButton('Pay $30.00'));

    expect(await screen.findByText('Payment Complete')).toBeDefined();
    expect(screen.getByText('Credits Pending')).toBeDefined();
    expect(
      screen.getAllByText('Your payment was successful, but there was an issue adding credits. Please contact support.')
        .length,
    ).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: /support@/ }).getAttribute('href')).toMatch(/^mailto:/);
  });

  it('offers Log In when the PaymentIntent cannot be created for a signed-out session', async () => {
    installFakeStripe();
    renderCheckout('/payment-checkout?credits=30', {
      'POST /api/credits/payment-intent': () =>
        json(401, { code: 'unauthorized', message: 'Please log in to purchase credits' }),
    });
    expect(
      await screen.findByText('You must be logged in to purchase credits. Please log in and try again.'),
    ).toBeDefined();
    expect(screen.getByText('Payment Error')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Back to Credits' }).getAttribute('href')).toBe('/credits');
  });

  it('covers the form until it is ready and warns after 10 seconds that it may be slow', async () => {
    installFakeStripe({ neverReady: true });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    renderCheckout('/payment-checkout?credits=30');

    expect(await screen.findByText('Loading secure payment form...')).toBeDefined();
    expect(screen.getByText('If the form takes more than 10 seconds to appear, refresh the page.')).toBeDefined();
    expect(screen.queryByText('Form may be slow to load')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay $30.00' }).hasAttribute('disabled')).toBe(true);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(screen.getByText('Form may be slow to load')).toBeDefined();
  });

  it("says 'Payment Form Error' when the form cannot load", async () => {
    installFakeStripe({ failLoad: true });
    renderCheckout('/payment-checkout?credits=30');
    expect(await screen.findByText('Payment Form Error')).toBeDefined();
    expect(screen.getByText('Failed to load payment form. Please try again.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeDefined();
  });
});
