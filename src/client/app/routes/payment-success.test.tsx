import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import {
  type ApiRoutes,
  balance,
  callsTo,
  createAuthUser,
  holdRequests,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  renderAppWith,
  resetAfterTest,
  stubApi,
} from '../testing/render-app';

function renderSuccess(path: string, overrides: ApiRoutes = {}) {
  return renderAppWith(path, {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'POST /api/credits/checkout-success': () => json(200, { creditsAdded: 30, alreadyCredited: false }),
    ...overrides,
  });
}

preloadPage(() => import('./payment-success'));
afterEach(resetAfterTest);

describe('/payment-success', () => {
  it('confirms the Checkout session once and says what was added', async () => {
    const fetchMock = renderSuccess('/payment-success?session_id=cs_test_42');

    expect(await screen.findByText('Payment Successful!')).toBeDefined();
    expect(screen.getByText('30 credits have been added to your account')).toBeDefined();
    expect(screen.getByText('You can now generate 30 AI videos')).toBeDefined();
    expect(screen.getByText("What's Next")).toBeDefined();
    for (const step of ['Generate videos with AI models', 'Upload images, videos or text', 'Download your creations']) {
      expect(screen.getByText(step)).toBeDefined();
    }
    expect(screen.getByRole('link', { name: 'Start Creating Videos' }).getAttribute('href')).toBe('/generator');
    expect(screen.getByRole('link', { name: 'View Credits' }).getAttribute('href')).toBe('/credits');
    expect(screen.getAllByRole('button', { name: 'Logout' }).length).toBeGreaterThan(0);

    expect(postedBodies(fetchMock, '/api/credits/checkout-success')).toEqual([{ sessionId: 'cs_test_42' }]);
  });

  it("shows 'Processing Payment' while the server checks the session", async () => {
    holdRequests(stubApi({ 'GET /api/auth/user': () => json(200, createAuthUser()) }), '/api/credits/checkout-success');
    renderApp('/payment-success?session_id=cs_test_42');
    expect(await screen.findByText('Processing Payment')).toBeDefined();
  });

  it('refetches the balance after the credits are added', async () => {
    const fetchMock = renderSuccess('/payment-success?session_id=cs_test_42', {
      'GET /api/user/balance': () => balance({ availableCredits: 30, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    });
    expect(await screen.findByText('Payment Successful!')).toBeDefined();
    // The auth check is refetched with the rest of the account's data.
    await waitFor(() => expect(callsTo(fetchMock, '/api/auth/user').length).toBeGreaterThan(1));
  });

  it("says 'No payment session found' without a session id", async () => {
    const fetchMock = renderSuccess('/payment-success');
    expect(await screen.findByText('No payment session found')).toBeDefined();
    expect(screen.getByText('Payment Error')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Credits' }).getAttribute('href')).toBe('/credits');
    expect(callsTo(fetchMock, '/api/credits/checkout-success')).toHaveLength(0);
  });

  it('gives the HTTP status when the confirmation fails', async () => {
    renderSuccess('/payment-success?session_id=cs_unpaid', {
      'POST /api/credits/checkout-success': () =>
        json(409, { code: 'payment_not_completed', message: 'This payment has not been completed' }),
    });
    expect(await screen.findByText('Payment confirmation failed: 409')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Credits' })).toBeDefined();
  });
});
