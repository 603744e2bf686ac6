import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import { VERIFICATION_RESENT_MESSAGE } from '../../shared/accounts';
import {
  type ApiRoutes,
  balance,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
} from './testing/render-app';

function renderSignedIn(emailVerifiedAt: string | null, overrides: ApiRoutes = {}) {
  return renderAppWith('/credits', {
    'GET /api/auth/user': () => json(200, createAuthUser({ email: 'maya@example.com', emailVerifiedAt })),
    'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    // This server sends mail, so a verification link can reach the user.
    'GET /api/auth/providers': () =>
      json(200, { oidc: null, google: false, passwordReset: true, registrationChallenge: false }),
    ...overrides,
  });
}

preloadPage(() => import('./routes/credits'));
preloadPage(() => import('./signed-in-extras'));
afterEach(resetAfterTest);

describe('the verify-your-email banner', () => {
  it('says where the link went and resends it with one POST', async () => {
    const fetchMock = renderSignedIn(null, {
      'POST /api/auth/verify-email/resend': () => json(202, { message: VERIFICATION_RESENT_MESSAGE }),
    });
    const banner = await screen.findByRole('region', { name: 'Verify your email' });
    expect(banner.textContent).toContain('we sent a link to maya@example.com');
    await userEvent.click(within(banner).getByRole('button', { name: 'Resend' }));
    expect(await within(banner).findByText(VERIFICATION_RESENT_MESSAGE)).toBeDefined();
    expect(postedBodies(fetchMock, '/api/auth/verify-email/resend')).toEqual([undefined]);
  });

  it('shows the server sentence when a resend is refused', async () => {
    renderSignedIn(null, {
      'POST /api/auth/verify-email/resend': () =>
        json(429, { code: 'rate_limited', message: 'Too many requests. Please wait 15 minutes.' }),
    });
    const banner = await screen.findByRole('region', { name: 'Verify your email' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Resend' }));
    expect((await within(banner).findByRole('alert')).textContent).toBe('Too many requests. Please wait 15 minutes.');
  });

  it('is not shown on a server that sends no mail, where no link could reach the user', async () => {
    renderSignedIn(null, {
      'GET /api/auth/providers': () =>
        json(200, { oidc: null, google: false, passwordReset: false, registrationChallenge: false }),
    });
    await screen.findByRole('navigation', { name: 'Account' });
    expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull();
  });

  it('is not shown once the email is verified', async () => {
    renderSignedIn('2026-11-25T05:00:00.000Z');
    await screen.findByRole('navigation', { name: 'Account' });
    expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull();
  });
});
