import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AccessToken } from '../../../shared/api-tokens';
import { dismissToast } from '../../components/ui/use-toast';
import { callsTo, createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const SECRET = `rs_${'a1B2'.repeat(10)}xyz`;
const listed = (overrides: Partial<AccessToken> = {}): AccessToken => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Nightly renders',
  scopes: ['videos:read', 'videos:write'],
  expiresAt: null,
  lastUsedAt: '2026-03-02T10:00:00.000Z',
  createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

function stubAccount(initial: AccessToken[]) {
  let tokens = initial;
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    'GET /api/account/sign-ins': () => json(200, { hasPassword: true, identities: [] }),
    'GET /api/account/tokens': () => json(200, { tokens }),
    'POST /api/account/tokens': () => {
      const made = listed({ id: '22222222-2222-4222-8222-222222222222', name: 'CI', lastUsedAt: null });
      tokens = [...tokens, made];
      const { lastUsedAt: _unused, ...rest } = made;
      return json(201, { ...rest, token: SECRET });
    },
    'DELETE /api/account/tokens/11111111-1111-4111-8111-111111111111': () => {
      tokens = tokens.filter((t) => t.id !== '11111111-1111-4111-8111-111111111111');
      return json(200, { message: 'The access token was revoked.' });
    },
  });
  return fetchMock;
}

describe('the access tokens section of /account', () => {
  it('lists tokens without secrets, with their scopes, last use and expiry', async () => {
    stubAccount([listed(), listed({ id: '3', name: 'Old laptop', expiresAt: '2020-01-01T00:00:00.000Z' })]);
    renderApp('/account');
    const first = (await screen.findByText('Nightly renders')).closest('li') as HTMLElement;
    const list = first.closest('ul') as HTMLElement;
    expect(list.getAttribute('aria-label')).toBe('Your access tokens');
    expect(within(first).getByText('videos:write')).toBeDefined();
    expect(within(first).getByText(/last used Mar 2, 2026 · never expires/)).toBeDefined();
    const old = within(list).getByText('Old laptop').closest('li') as HTMLElement;
    expect(within(old).getByText('Expired')).toBeDefined();
  });

  it('creates a token, shows it once with a copy button, then forgets it', async () => {
    const fetchMock = stubAccount([]);
    const writeText = vi.fn(async () => undefined);
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/account');
    expect(await screen.findByText('You have no access tokens.')).toBeDefined();

    // No name: a sentence, and no request.
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Give the token a name, such as the program that will use it.',
    );
    expect(callsTo(fetchMock, '/api/account/tokens').filter(([, init]) => init?.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('Token name'), 'CI');
    await user.click(screen.getByRole('checkbox', { name: /uploads:write/ }));
    await user.click(screen.getByRole('checkbox', { name: /account:read/ }));
    await user.selectOptions(screen.getByLabelText('Expires'), 'Never');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const field = await screen.findByLabelText<HTMLInputElement>('Your new access token');
    expect(field.value).toBe(SECRET);
    const post = callsTo(fetchMock, '/api/account/tokens').find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({
      name: 'CI',
      scopes: ['videos:read', 'videos:write', 'account:read'],
      expiresAt: null,
    });
    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Copied')).toBeDefined();
    // Listed (without its secret) beside the notice; Done forgets the secret for good.
    expect(await screen.findByText('never used', { exact: false })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Your new access token')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('revokes a token', async () => {
    const fetchMock = stubAccount([listed()]);
    const user = userEvent.setup();
    renderApp('/account');
    await user.click(await screen.findByRole('button', { name: 'Revoke Nightly renders' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/account/tokens/11111111-1111-4111-8111-111111111111')).toHaveLength(1),
    );
    expect(await screen.findByText('You have no access tokens.')).toBeDefined();
    expect(await screen.findByText('“Nightly renders” no longer works.')).toBeDefined();
  });
});
