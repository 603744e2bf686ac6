import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PASSWORD_RESET_REQUESTED_MESSAGE } from '../../../shared/accounts';
import { dismissToast } from '../../components/ui/use-toast';
import { balance, createAuthUser, json, postedBodies, renderApp, signedOut, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const withReset = () => json(200, { oidc: null, google: false, passwordReset: true });

describe('forgot password', () => {
  it('asks for the email and shows the one answer the server gives', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': withReset,
      'POST /api/auth/password-reset': () => json(202, { message: PASSWORD_RESET_REQUESTED_MESSAGE }),
    });
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'Maya@Example.com');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(await screen.findByText(PASSWORD_RESET_REQUESTED_MESSAGE)).toBeDefined();
    expect(postedBodies(fetchMock, '/api/auth/password-reset')).toEqual([{ email: 'Maya@Example.com' }]);
  });

  it('tells the visitor to ask the administrator on a server without email', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    });
    renderApp('/forgot-password');
    expect(
      await screen.findByText('This server cannot send email, so passwords are reset by its administrator.'),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'SEND RESET LINK' })).toBeNull();
  });
});

describe('reset password', () => {
  it('sets the new password from the link and goes to the dashboard', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/password-reset/confirm': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 1, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    });
    const user = userEvent.setup();
    renderApp('/reset-password?token=abc123');
    const field = await screen.findByLabelText('New Password');
    expect(field.getAttribute('autocomplete')).toBe('new-password');
    await user.type(field, 'short');
    await user.click(screen.getByRole('button', { name: 'SET NEW PASSWORD' }));
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeDefined();
    await user.clear(field);
    await user.type(field, 'a long new password');
    await user.click(screen.getByRole('button', { name: 'SET NEW PASSWORD' }));
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    expect(postedBodies(fetchMock, '/api/auth/password-reset/confirm')).toEqual([
      { token: 'abc123', password: 'a long new password' },
    ]);
  });

  it('explains a used or expired link and offers a new one', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/password-reset/confirm': () =>
        json(400, {
          code: 'reset_link_invalid',
          message: 'This reset link has expired or has already been used. Please ask for a new one.',
        }),
    });
    const user = userEvent.setup();
    renderApp('/reset-password?token=used');
    await user.type(await screen.findByLabelText('New Password'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'SET NEW PASSWORD' }));
    expect(
      await screen.findByText('This reset link has expired or has already been used. Please ask for a new one.'),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });
});
