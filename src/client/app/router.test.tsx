import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { balance, createAuthUser, holdRequests, json, renderApp, signedOut, stubApi } from './testing/render-app';

const signedIn =
  (overrides = {}) =>
  () =>
    json(200, createAuthUser(overrides));
const status = (body: object) => () =>
  balance({ availableCredits: 5, isUnlimited: false, plan: 'JUST_FOR_FUN', ...body });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the router', () => {
  it('shows a spinner while the auth check is pending', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderApp('/');

    expect(screen.getByRole('status', { name: 'Loading' })).toBeDefined();
  });

  it('shows the landing page to visitors at /, with the external sign-ins this server has', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, { oidc: { label: 'Continue with Acme SSO' }, google: true, passwordReset: false }),
    });
    renderApp('/');

    expect(await screen.findByRole('link', { name: 'GET STARTED' })).toBeDefined();
    expect((await screen.findByRole('link', { name: /Continue with Acme SSO/ })).getAttribute('href')).toBe(
      '/api/login',
    );
    expect(screen.getByRole('link', { name: /Continue with Google/ }).getAttribute('href')).toBe('/api/auth/google');
    expect(screen.getAllByRole('img', { name: /out of 5 stars/ })).toHaveLength(3);
  });

  it('shows no external sign-in buttons when the server has none configured', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    });
    renderApp('/');

    expect(await screen.findByRole('link', { name: 'GET STARTED' })).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('link', { name: /Continue with/ })).toBeNull());
  });

  it('shows the generator screen at / once signed in', async () => {
    stubApi({ 'GET /api/auth/user': signedIn() });
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Create Video' })).toBeDefined();
    expect(screen.getByText('Upload and describe')).toBeDefined();
  });

  it('asks visitors to sign in on signed-in screens', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    renderApp('/history');

    expect(await screen.findByRole('heading', { name: 'Sign In Required' })).toBeDefined();
    expect((await screen.findByRole('link', { name: 'Sign In' })).getAttribute('href')).toBe('/login');
  });

  it("links 'Sign In Required' to /api/login when the server has OpenID Connect sign-in", async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, { oidc: { label: 'Continue with Acme SSO' }, google: false, passwordReset: false }),
    });
    renderApp('/history');

    expect(await screen.findByRole('heading', { name: 'Sign In Required' })).toBeDefined();
    // The first link the visitor sees is the final one: read once, never waited into place.
    expect((await screen.findByRole('link', { name: 'Sign In' })).getAttribute('href')).toBe('/api/login');
  });

  it("holds 'Sign In' as a disabled button while the sign-in options are on their way", async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, { oidc: { label: 'Continue with Acme SSO' }, google: false, passwordReset: false }),
    });
    holdRequests(fetchMock, '/api/auth/providers');
    renderApp('/history');

    expect(await screen.findByRole('heading', { name: 'Sign In Required' })).toBeDefined();
    const placeholder = screen.getByRole('button', { name: 'Sign In' });
    expect(placeholder.hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  it('uses the generator wording on /generator', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    renderApp('/generator');

    expect(await screen.findByText('Please sign in to start creating videos')).toBeDefined();
  });

  it('sends a signed-in user from /login to the dashboard', async () => {
    stubApi({ 'GET /api/auth/user': signedIn(), 'GET /api/user/balance': status({}) });
    renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    expect(window.location.pathname).toBe('/dashboard');
  });

  it('shows unlimited credits and the admin link to an administrator', async () => {
    stubApi({
      'GET /api/auth/user': signedIn({ isAdmin: true }),
      'GET /api/user/balance': status({ isUnlimited: true }),
    });
    renderApp('/dashboard');

    expect(await screen.findByText('∞ Unlimited')).toBeDefined();
    expect(screen.getByRole('link', { name: /Admin Dashboard/ }).getAttribute('href')).toBe('/admin');
    expect(screen.getByRole('button', { name: /Logout/ })).toBeDefined();
  });

  it('hides the admin link from other users', async () => {
    stubApi({ 'GET /api/auth/user': signedIn(), 'GET /api/user/balance': status({}) });
    renderApp('/dashboard');

    expect(await within(await screen.findByRole('group', { name: 'Available Credits' })).findByText('5')).toBeDefined();
    expect(screen.queryByRole('link', { name: /Admin Dashboard/ })).toBeNull();
  });

  it('shows the not-found screen for unknown paths', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeDefined();
    expect(screen.getByText('404')).toBeDefined();
    expect(screen.getByText("The page you're looking for doesn't exist or has been moved.")).toBeDefined();
    expect(screen.getByRole('link', { name: /Go Home/ }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('button', { name: /Go Back/ })).toBeDefined();
  });
});
