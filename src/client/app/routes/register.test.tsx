import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, renderApp, signedOut, stubApi } from '../testing/render-app';

async function findToast(title: string) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  return within(region).findByText(title);
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, values: { firstName: string; password: string }) {
  await user.type(await screen.findByLabelText('First Name'), values.firstName);
  await user.type(screen.getByLabelText('Email'), 'maya@example.com');
  await user.type(screen.getByLabelText('Password'), values.password);
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the /register page', () => {
  it('labels every field and offers the other ways in', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, { oidc: { label: 'Continue with Replit' }, google: true, passwordReset: false }),
    });
    renderApp('/register');

    expect(await screen.findByLabelText('First Name')).toBeDefined();
    expect(screen.getByLabelText(/Last Name/)).toBeDefined();
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByText('At least 8 characters')).toBeDefined();
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('minlength')).toBe('8');
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('new-password');
    expect((await screen.findByRole('link', { name: /Continue with Replit/ })).getAttribute('href')).toBe('/api/login');
    expect(screen.getByRole('link', { name: /Continue with Google/ }).getAttribute('href')).toBe('/api/auth/google');
    expect(screen.getByRole('link', { name: /Back to Home/ }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
  });

  it('asks for the required fields before calling the server', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    const user = userEvent.setup();
    renderApp('/register');

    await user.click(await screen.findByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await findToast('Missing Information')).toBeDefined();
    expect(screen.getAllByText('Please fill in all required fields').length).toBeGreaterThan(0);
    expect(screen.getByText('Please enter your first name.')).toBeDefined();
    expect(screen.getByLabelText('First Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('says beside the fields, in plain sentences, what is wrong with the email and the password', async () => {
    const fetchMock = stubApi({ 'GET /api/auth/user': signedOut });
    const user = userEvent.setup();
    renderApp('/register');

    await user.type(await screen.findByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByText('Please enter an email address like name@example.com.')).toBeDefined();
    expect(screen.getByText('Password must be at least 8 characters.')).toBeDefined();
    expect(screen.getByLabelText('Email').getAttribute('aria-describedby')).toContain('-error');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('shows the server message when the email is taken', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/register': () =>
        json(409, { code: 'email_taken', message: 'An account with this email already exists' }),
    });
    const user = userEvent.setup();
    renderApp('/register');

    await fillForm(user, { firstName: 'Maya', password: 'long-enough' });
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await findToast('Registration Failed')).toBeDefined();
    expect(screen.getAllByText('An account with this email already exists').length).toBeGreaterThan(0);
  });

  it('sends the new account to the dashboard', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/register': () => json(201, createAuthUser()),
      'GET /api/user/status': () => json(200, { availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    });
    const user = userEvent.setup();
    renderApp('/register');

    await fillForm(user, { firstName: 'Maya', password: 'long-enough' });
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    const registerCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/register');
    expect(JSON.parse(registerCall?.[1]?.body as string)).toEqual({
      firstName: 'Maya',
      lastName: null,
      email: 'maya@example.com',
      password: 'long-enough',
    });
  });
});
