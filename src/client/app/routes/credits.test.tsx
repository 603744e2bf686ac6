import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import { browserNavigation } from '../../lib/browser-navigation';
import {
  type ApiRoutes,
  balance,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
} from '../testing/render-app';

const enabled = () => json(200, { enabled: true, publishableKey: 'pk_test_123' });
const disabled = () => json(200, { enabled: false, publishableKey: null });

function renderCredits(overrides: ApiRoutes = {}) {
  return renderAppWith('/credits', {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: 12, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/payments/config': enabled,
    ...overrides,
  });
}

preloadPage(() => import('./credits'));
afterEach(resetAfterTest);

describe('the /credits page', () => {
  it('shows the balance and the four packages, 30 marked most popular, with the ways back and out', async () => {
    renderCredits();

    expect(await screen.findByText('12 Credits')).toBeDefined();
    const packages = screen.getByRole('list', { name: 'Credit packages' });
    expect(
      within(packages)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([
      expect.stringContaining('10 Credits$10'),
      expect.stringContaining('Most Popular30 Credits$30'),
      expect.stringContaining('75 Credits$75'),
      expect.stringContaining('200 Credits$200'),
    ]);
    expect(screen.getByRole('link', { name: 'Back to Generator' }).getAttribute('href')).toBe('/generator');
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeDefined();
    // The page's own Log Out stands for the header's Logout: one way out, and Sign out everywhere.
    expect(screen.getAllByRole('button', { name: /Log ?out/i })).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Sign out everywhere/ })).toBeDefined();
    expect(screen.getByRole('link', { name: /See daily plans/ }).getAttribute('href')).toBe('/subscribe');
  });

  it("reveals 'Purchase 30 Credits for $30' linking to the card form when 30 is chosen", async () => {
    renderCredits();
    expect(screen.queryByRole('link', { name: /Purchase/ })).toBeNull();

    await userEvent.click(await screen.findByRole('button', { name: /30 Credits/ }));

    expect(screen.getByRole('button', { name: /30 Credits/ }).getAttribute('aria-pressed')).toBe('true');
    const purchase = screen.getByRole('link', { name: 'Purchase 30 Credits for $30' });
    expect(purchase.getAttribute('href')).toBe('/payment-checkout?credits=30');
  });

  it("shows '∞ Unlimited' for an unlimited user, and offers nothing to buy", async () => {
    renderCredits({
      'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: true, plan: 'JUST_FOR_FUN' }),
    });
    expect(await screen.findByText('∞ Unlimited')).toBeDefined();
    expect(await screen.findByText('Your account is unlimited')).toBeDefined();
    expect(within(screen.getByRole('list', { name: 'Credit packages' })).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('link', { name: /Purchase/ })).toBeNull();
  });

  it('goes to Stripe Checkout with the chosen amount', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    onTestFinished(() => assign.mockRestore());
    const fetchMock = renderCredits({
      'POST /api/credits/checkout': () => json(200, { checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_1' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: /75 Credits/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay on Stripe Checkout' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(postedBodies(fetchMock, '/api/credits/checkout')).toEqual([{ creditsAmount: 75 }]);
  });

  it('says the user must log in when Checkout answers 401, and gives the status of other failures', async () => {
    let status = 401;
    renderCredits({
      'POST /api/credits/checkout': () =>
        status === 401
          ? json(401, { code: 'unauthorized', message: 'Please log in to purchase credits' })
          : json(502, { code: 'payment_provider_error', message: 'Stripe refused' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: /10 Credits/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay on Stripe Checkout' }));
    expect(
      await screen.findByText('You must be logged in to purchase credits. Please log in and try again.'),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');

    status = 502;
    await userEvent.click(screen.getByRole('button', { name: 'Pay on Stripe Checkout' }));
    expect(await screen.findByText('HTTP 502: Payment initialization failed')).toBeDefined();
  });

  it("says who to ask for credits where the server takes no payments: the operator's contact, as a link", async () => {
    renderCredits({
      'GET /api/payments/config': () =>
        json(200, { enabled: false, publishableKey: null, operatorContact: 'ops@videos.example.com' }),
    });

    expect(await screen.findByText('Payment Unavailable')).toBeDefined();
    const contact = await screen.findByRole('link', { name: 'ops@videos.example.com' });
    expect(contact.getAttribute('href')).toBe('mailto:ops@videos.example.com');
    expect(contact.parentElement?.textContent).toBe('To get credits, contact the operator: ops@videos.example.com.');
  });

  it('shows the packages as information only when the server takes no payments', async () => {
    renderCredits({ 'GET /api/payments/config': disabled });

    expect(await screen.findByText('Payment Unavailable')).toBeDefined();
    expect(screen.getByText('Payment system is not configured')).toBeDefined();
    expect(screen.getByText(/To get credits, ask the person who runs this server\./)).toBeDefined();
    const packages = screen.getByRole('list', { name: 'Credit packages' });
    expect(within(packages).getByText('30 Credits')).toBeDefined();
    // Nothing to select or buy, and no word of Stripe processing anything.
    expect(within(packages).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Purchase/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Purchase/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pay on Stripe Checkout' })).toBeNull();
    expect(screen.queryByText(/processed by Stripe/)).toBeNull();
    // No dollar price where nothing can be bought, and one way to log out, beside the title.
    expect(screen.getByText('Credits never expire.')).toBeDefined();
    expect(
      document.querySelector('main')?.textContent,
      document.querySelector('main')?.textContent ?? '',
    ).not.toContain('$');
    expect(screen.getAllByRole('button', { name: /Log ?out/i })).toHaveLength(1);
  });
});
