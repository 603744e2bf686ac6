import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { balance, callsTo, createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const signedIn = () => json(200, createAuthUser());
const identity = (id: string, provider: 'oidc' | 'google', providerName: string) => ({
  id,
  provider,
  providerName,
  email: 'maya@example.com',
  createdAt: '2025-02-01T00:00:00.000Z',
});

describe('the /account page', () => {
  it('is reachable from the header, lists the ways to sign in and removes one', async () => {
    let identities = [identity('i1', 'oidc', 'Acme SSO'), identity('i2', 'google', 'Google')];
    const fetchMock = stubApi({
      'GET /api/auth/user': signedIn,
      'GET /api/auth/providers': () =>
        json(200, { oidc: { label: 'Continue with Acme SSO' }, google: true, passwordReset: true }),
      'GET /api/account/sign-ins': () => json(200, { hasPassword: false, identities }),
      'DELETE /api/account/identities/i2': () => {
        identities = identities.filter((i) => i.id !== 'i2');
        return json(200, { message: 'The sign-in was removed from your account.' });
      },
    });
    const user = userEvent.setup();
    renderApp('/history');
    await user.click(await screen.findByRole('link', { name: /Account/ }));
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeDefined();
    expect(window.location.pathname).toBe('/account');

    const card = (await screen.findByText('Acme SSO')).closest('ul');
    expect(card).not.toBeNull();
    expect(within(card as HTMLElement).getByText('Not set')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Remove Google' }));
    await waitFor(() => expect(callsTo(fetchMock, '/api/account/identities/i2')).toHaveLength(1));
    // Now the single sign-in left cannot be removed.
    expect(await screen.findByText('Your only way to sign in')).toBeDefined();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Link Google' }).getAttribute('href')).toBe('/api/auth/google');
  });
});

describe('the credits card on a server without payments', () => {
  it('tells a plain user who cannot pay to ask the administrator instead of offering Buy Credits', async () => {
    stubApi({
      'GET /api/auth/user': signedIn,
      'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
      'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    });
    renderApp('/generator');
    expect(
      await within(await screen.findByTestId('ask-administrator')).findByText(
        'To get credits, ask the person who runs this server.',
      ),
    ).toBeDefined();
    expect(screen.getByTestId('ask-administrator').textContent).toBe(
      'This server does not take payments. To get credits, ask the person who runs this server.',
    );
    expect(screen.queryByRole('link', { name: /Buy Credits/ })).toBeNull();
  });
});
