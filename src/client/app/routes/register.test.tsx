import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { balance, callsTo, createAuthUser, json, renderApp, signedOut, stubApi } from '../testing/render-app';

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

  it('says a server taking no new accounts is closed, with who runs it, instead of a form it would refuse', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, {
          oidc: null,
          google: false,
          passwordReset: false,
          registrationOpen: false,
          operatorContact: 'owner@example.com',
        }),
    });
    renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'No new accounts' })).toBeDefined();
    expect(
      screen.getByText('This server is not taking new accounts. Ask the person who runs it for one.'),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'owner@example.com' }).getAttribute('href')).toBe(
      'mailto:owner@example.com',
    );
    expect(screen.getByRole('link', { name: 'Sign in to your account' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByLabelText('Password')).toBeNull();
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
    // Nothing is missing: no 'Missing Information' toast contradicts the sentences beside the fields.
    expect(screen.queryByText('Missing Information')).toBeNull();
  });

  it('says a too-short password is too short, once, and a toast only for what is missing', async () => {
    stubApi({ 'GET /api/auth/user': signedOut });
    const user = userEvent.setup();
    renderApp('/register');

    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await findToast('Missing Information')).toBeDefined();
    expect(
      screen.getByText('Please fill in all required fields. Password must be at least 8 characters.'),
    ).toBeDefined();
    expect(screen.getByText('Please enter your first name.')).toBeDefined();
  });

  it('leaves no red toast behind on the dashboard after a sign-up that follows a refused one', async () => {
    let registered = false;
    stubApi({
      'GET /api/auth/user': () => (registered ? json(200, createAuthUser()) : signedOut()),
      'GET /api/user/balance': () => balance({ availableCredits: 1 }),
      'POST /api/auth/register': () => {
        registered = true;
        return json(201, createAuthUser());
      },
    });
    const user = userEvent.setup();
    renderApp('/register');

    // Everything but the first name: refused with a toast (it lasts 5 s); then the name, and in.
    await user.type(await screen.findByLabelText('Email'), 'maya@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));
    expect(await findToast('Missing Information')).toBeDefined();
    await user.type(screen.getByLabelText('First Name'), 'M');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    expect(screen.queryByText('Missing Information')).toBeNull();
  });

  it('says beside the email, once, that the email is taken', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/register': () =>
        json(409, { code: 'email_taken', message: 'An account with this email already exists' }),
    });
    const user = userEvent.setup();
    renderApp('/register');

    await fillForm(user, { firstName: 'Maya', password: 'long-enough' });
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(
      await screen.findByText('An account with this email already exists. Sign in instead, or use another email.'),
    ).toBeDefined();
    expect(screen.queryByText('Registration Failed')).toBeNull();
  });

  it("says 'Registration Failed' with the server's sentence when it belongs to no field", async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/register': () =>
        json(429, {
          code: 'too_many_registrations',
          message: 'Too many accounts from this address. Try again in 1 hour.',
        }),
    });
    const user = userEvent.setup();
    renderApp('/register');

    await fillForm(user, { firstName: 'Maya', password: 'long-enough' });
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await findToast('Registration Failed')).toBeDefined();
    expect(screen.getAllByText('Too many accounts from this address. Try again in 1 hour.')).toHaveLength(1);
  });

  it('sends the new account to the dashboard', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'POST /api/auth/register': () => json(201, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
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

  it('checks this browser with the proof of work of the server first, and the submit waits for it', async () => {
    // A real ALTCHA challenge the form must solve: the number 42 is the answer.
    const salt = 'c0ffee?expires=9999999999';
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}42`));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    let sendChallenge: () => void = () => undefined;
    const challengeSent = new Promise<void>((resolve) => (sendChallenge = resolve));
    const fetchMock = stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () =>
        json(200, { oidc: null, google: false, passwordReset: false, registrationChallenge: true }),
      // Its body arrives only when the test sends it, to see the form while it waits.
      'GET /api/auth/challenge': () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              await challengeSent;
              const body = { algorithm: 'SHA-256', challenge: hex, maxnumber: 1000, salt, signature: 'sig' };
              controller.enqueue(new TextEncoder().encode(JSON.stringify(body)));
              controller.close();
            },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
      'POST /api/auth/register': () => json(201, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    });
    const user = userEvent.setup();
    renderApp('/register');

    expect(await screen.findByText('Checking this browser…')).toBeDefined();
    await fillForm(user, { firstName: 'Maya', password: 'long-enough' });
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));
    const waiting = await screen.findByRole('button', { name: 'Creating Account...' });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    expect(callsTo(fetchMock, '/api/auth/register')).toHaveLength(0);

    sendChallenge();
    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    const [registerCall] = callsTo(fetchMock, '/api/auth/register');
    const body = JSON.parse(registerCall?.[1]?.body as string) as { challengeSolution: string };
    expect(JSON.parse(atob(body.challengeSolution))).toEqual({
      algorithm: 'SHA-256',
      challenge: hex,
      maxnumber: 1000,
      salt,
      signature: 'sig',
      number: 42,
    });
  });
});
