import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import { browserNavigation } from '../lib/browser-navigation';
import {
  type ApiRoutes,
  balance,
  callsTo,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
} from './testing/render-app';

function renderSignedIn(overrides: ApiRoutes = {}) {
  // Any signed-in page but /credits, whose own Log Out stands in for the header's.
  return renderAppWith('/history', {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/video-generation': () => json(200, []),
    'GET /api/user/balance': () => balance({ availableCredits: 12, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    ...overrides,
  });
}

function watchNavigation() {
  const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
  onTestFinished(() => assign.mockRestore());
  return assign;
}

async function openSignOutEverywhere() {
  const account = await screen.findByRole('navigation', { name: 'Account' });
  await userEvent.click(within(account).getByRole('button', { name: 'Sign out everywhere' }));
  return screen.findByRole('alertdialog', { name: 'Sign out everywhere?' });
}

preloadPage(() => import('./routes/history'));
afterEach(resetAfterTest);

describe('signing out from the header', () => {
  it('logs out with a POST and goes home', async () => {
    const assign = watchNavigation();
    const fetchMock = renderSignedIn({
      'POST /api/auth/logout': () => json(200, { message: 'You have been signed out.' }),
    });

    const account = await screen.findByRole('navigation', { name: 'Account' });
    await userEvent.click(within(account).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(postedBodies(fetchMock, '/api/auth/logout')).toEqual([undefined]);
  });

  it('asks before signing out everywhere, and Cancel changes nothing', async () => {
    const fetchMock = renderSignedIn();

    const dialog = await openSignOutEverywhere();
    expect(within(dialog).getByText(/every device and browser, this one included/)).toBeDefined();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetchMock, '/api/auth/logout-all')).toHaveLength(0);
  });

  it('signs out everywhere on confirmation and opens sign-in with the result as a notice', async () => {
    const assign = watchNavigation();
    const message = 'You have been signed out on every device (3 sessions ended).';
    const fetchMock = renderSignedIn({ 'POST /api/auth/logout-all': () => json(200, { message }) });

    const dialog = await openSignOutEverywhere();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`/login?message=${encodeURIComponent(message)}`));
    expect(postedBodies(fetchMock, '/api/auth/logout-all')).toEqual([undefined]);
    expect(within(dialog).getByRole('button', { name: 'Signing out...' }).hasAttribute('disabled')).toBe(true);
  });

  it('keeps the dialog open with the reason when signing out everywhere fails', async () => {
    const assign = watchNavigation();
    renderSignedIn({
      'POST /api/auth/logout-all': () => json(503, { code: 'unavailable', message: 'The database is busy.' }),
    });

    const dialog = await openSignOutEverywhere();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The database is busy. Please try again.');
    expect(within(dialog).getByRole('button', { name: 'Sign out everywhere' }).hasAttribute('disabled')).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });
});
