import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { SecurityEvent } from '../../../shared/account-security';
import { PASSWORD_CHANGED_MESSAGE } from '../../../shared/accounts';
import { dismissToast } from '../../components/ui/use-toast';
import { callsTo, createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const handOver: SecurityEvent = {
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'hand_over',
  via: 'Google',
  removed: { sessions: 2, accessTokens: 1, webhookEndpoints: 1, signIns: 0, links: 0, password: true },
  createdAt: '2026-11-27T09:30:00.000Z',
};

function stubAccount(initial: SecurityEvent[]) {
  let events = initial;
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    'GET /api/account/sign-ins': () => json(200, { hasPassword: true, identities: [] }),
    'GET /api/account/tokens': () => json(200, { tokens: [] }),
    'GET /api/account/security-events': () => json(200, { events }),
    'POST /api/account/password': () => {
      events = [
        {
          id: '22222222-2222-4222-8222-222222222222',
          kind: 'password_change',
          via: null,
          removed: { sessions: 1, accessTokens: 3, webhookEndpoints: 0, signIns: 0, links: 0, password: false },
          createdAt: '2026-11-28T10:00:00.000Z',
        },
        ...events,
      ];
      return json(200, { message: PASSWORD_CHANGED_MESSAGE });
    },
  });
}

describe('the security activity section of /account', () => {
  it('says what each event removed, and when', async () => {
    stubAccount([handOver]);
    renderApp('/account');
    const row = (
      await screen.findByText('Signed in with Google, which proved this email: the account was handed to its owner')
    ).closest('li') as HTMLElement;
    expect(
      within(row).getByText(
        /Ended 2 sessions, revoked 1 access token, removed 1 webhook endpoint and removed the password\./,
      ),
    ).toBeDefined();
    expect(
      within(row)
        .getByText(/Nov 27, 2026/)
        .getAttribute('dateTime'),
    ).toBe(handOver.createdAt);
  });

  it('says so when nothing happened yet, and lists a password change as soon as it is made', async () => {
    const fetchMock = stubAccount([]);
    const user = userEvent.setup();
    renderApp('/account');
    expect(await screen.findByText('Nothing has changed hands on this account yet.')).toBeDefined();

    await user.type(screen.getByLabelText('Current password'), 'old password 1');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('New password again'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(PASSWORD_CHANGED_MESSAGE)).toBeDefined();
    const row = (await screen.findByText('Password changed')).closest('li') as HTMLElement;
    expect(within(row).getByText(/Ended 1 session and revoked 3 access tokens\./)).toBeDefined();
    await waitFor(() => expect(callsTo(fetchMock, '/api/account/tokens').length).toBeGreaterThan(1));
  });
});
