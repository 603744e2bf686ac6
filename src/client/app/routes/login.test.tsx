import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type * as UseToastModule from '../../components/ui/use-toast';
import { dismissToast, toast } from '../../components/ui/use-toast';
import { balance, createAuthUser, json, renderApp, signedOut, stubApi } from '../testing/render-app';

// Wrap toast() in a spy to count how many notices were raised (StrictMode runs effects twice).
vi.mock('../../components/ui/use-toast', async (importOriginal) => {
  const original = await importOriginal<typeof UseToastModule>();
  return { ...original, toast: vi.fn(original.toast) };
});

async function findToast(title: string) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  return within(region).findByText(title);
}

afterEach(() => {
  cleanup();
  vi.mocked(toast).mockClear();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the /login page', () => {
  it('shows the Google Sign-In Failed notice once and removes the query string', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    renderApp('/login?error=google_auth_failed');

    expect(await findToast('Google Sign-In Failed')).toBeDefined();
    const region = screen.getByRole('region', { name: /Notifications/ });
    expect(within(region).getAllByRole('listitem')).toHaveLength(1);
    expect(vi.mocked(toast)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(toast)).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Google Sign-In Failed', variant: 'destructive', duration: 12_000 }),
    );
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/login');
  });

  it('shows a message parameter as an Authentication Notice', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    renderApp('/login?message=You%20have%20been%20signed%20out');

    expect(await findToast('Authentication Notice')).toBeDefined();
    expect(screen.getAllByText('You have been signed out').length).toBeGreaterThan(0);
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('shows details from the address only as short plain text', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    const details = `<b>Call</b>\u202E 555-0100\u0007 now ${'x'.repeat(300)}`;
    renderApp(`/login?error=oauth_error&details=${encodeURIComponent(details)}`);

    expect(await findToast('OAuth Error')).toBeDefined();
    const shown = vi.mocked(toast).mock.calls[0]?.[0].description;
    expect(typeof shown).toBe('string');
    const text = shown as string;
    expect(Array.from(text)).toHaveLength(200);
    expect(text.startsWith('<b>Call</b> 555-0100 now xxx')).toBe(true);
    expect(text.endsWith('x\u2026')).toBe(true);
    expect(text).not.toMatch(/[\p{Cc}\u202e]/u);
    // Shown as the text it is, never as markup.
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getAllByText(text).length).toBeGreaterThan(0);
  });

  it('asks for both fields before calling the server', async () => {
    const fetchMock = stubApi({ 'GET /api/auth/user': signedOut });
    const user = userEvent.setup();
    renderApp('/login');

    await user.click(await screen.findByRole('button', { name: 'SIGN IN' }));

    expect(await findToast('Missing Information')).toBeDefined();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('says a refused password once, beside the password, with no toast repeating it', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/login': () => json(401, { code: 'invalid_credentials', message: 'Invalid email or password' }),
    });
    const user = userEvent.setup();
    renderApp('/login');

    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));

    await screen.findByText('Invalid email or password');
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(1);
    expect(screen.queryByText('Login Failed')).toBeNull();
  });

  it("says 'Login Failed' in a toast when the failure has no sentence of its own", async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/login': () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    const user = userEvent.setup();
    renderApp('/login');

    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'a-password');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));

    expect(await findToast('Login Failed')).toBeDefined();
    expect(screen.getAllByText('Invalid credentials')).toHaveLength(1);
  });

  it('says beside the password how many tries are left', async () => {
    const sentence =
      'Invalid email or password. 2 tries left before sign-in to this account from your network is paused for 15 minutes.';
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/login': () => json(401, { code: 'invalid_credentials', message: sentence }),
    });
    const user = userEvent.setup();
    renderApp('/login');

    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));

    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const errorId = password.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe(sentence);
  });

  it("offers 'Forgot password?' only when the server can send email", async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: true }),
    });
    renderApp('/login');
    expect((await screen.findByRole('link', { name: 'Forgot password?' })).getAttribute('href')).toBe(
      '/forgot-password',
    );
    cleanup();

    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    });
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'SIGN IN' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Continue with/ })).toBeNull();
    // Without mail, the page says where a reset link comes from.
    expect(
      await screen.findByText('Forgot your password? Ask the person who runs this server for a reset link.'),
    ).toBeDefined();
  });

  it('goes to the dashboard after signing in', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/login': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 12, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    });
    const user = userEvent.setup();
    renderApp('/login');

    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));

    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    expect(window.location.pathname).toBe('/dashboard');
    expect(
      await within(await screen.findByRole('group', { name: 'Available Credits' })).findByText('12'),
    ).toBeDefined();
  });
});
