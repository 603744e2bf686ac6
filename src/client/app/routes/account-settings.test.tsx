import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { browserNavigation } from '../../lib/browser-navigation';
import { callsTo, createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const options = (passwordReset: boolean) => () =>
  json(200, { oidc: null, google: false, passwordReset, registrationChallenge: false });
const noPendingChange = () => json(200, { pendingEmail: null, pendingUntil: null });
const withPassword = () => json(200, { hasPassword: true, identities: [] });
function bodyOf(calls: ReturnType<typeof callsTo>, index = 0): unknown {
  const body = calls[index]?.[1]?.body;
  return typeof body === 'string' ? JSON.parse(body) : null;
}

describe('editing the account on /account', () => {
  it('saves the name, saying what is wrong while typing', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(true),
      'GET /api/account/email': noPendingChange,
      'GET /api/account/sign-ins': withPassword,
      'PATCH /api/account': () => json(200, createAuthUser({ firstName: 'Maya', lastName: null, displayName: 'Maya' })),
    });
    const user = userEvent.setup();
    renderApp('/account');
    const form = await screen.findByRole('form', { name: 'Your name' });
    const first = within(form).getByLabelText('First name');
    expect((first as HTMLInputElement).value).toBe('Maya');
    await user.clear(first);
    expect(within(form).getByText('Please enter your first name.')).toBeDefined();
    expect(within(form).getByRole('button', { name: 'Save Name' })).toHaveProperty('disabled', true);
    await user.type(first, 'Maya');
    await user.clear(within(form).getByLabelText(/Last name/));
    await user.click(within(form).getByRole('button', { name: 'Save Name' }));
    expect(await within(form).findByText('Your name was saved.')).toBeDefined();
    expect(bodyOf(callsTo(fetchMock, '/api/account'))).toEqual({ firstName: 'Maya', lastName: null });
  });

  it('asks for a new email with the current password and shows it pending until the link is followed', async () => {
    let pending: string | null = null;
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(true),
      'GET /api/account/email': () => json(200, { pendingEmail: pending, pendingUntil: null }),
      'GET /api/account/sign-ins': withPassword,
      'POST /api/account/email': () => {
        pending = 'maya@new.example';
        return json(202, { pendingEmail: pending, pendingUntil: '2026-01-02T00:00:00.000Z' });
      },
      'DELETE /api/account/email': () => {
        pending = null;
        return json(200, { pendingEmail: null, pendingUntil: null });
      },
    });
    const user = userEvent.setup();
    renderApp('/account');
    await user.click(await screen.findByRole('button', { name: 'Change Email' }));
    const form = screen.getByRole('form', { name: 'Change email' });
    await user.type(within(form).getByLabelText('New email'), 'maya@');
    await user.click(within(form).getByRole('button', { name: 'Send Link' }));
    expect(within(form).getByText('Please enter an email address like name@example.com.')).toBeDefined();
    expect(within(form).getByText('Please enter your current password.')).toBeDefined();
    expect(callsTo(fetchMock, '/api/account/email').filter(([, init]) => init?.method === 'POST')).toHaveLength(0);

    await user.type(within(form).getByLabelText('New email'), 'new.example');
    await user.type(within(form).getByLabelText('Current password'), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Send Link' }));
    expect(await screen.findByText('maya@new.example')).toBeDefined();
    expect(screen.getByText(/is pending verification/).textContent).toContain('keep signing in with maya@example.com');
    const posted = callsTo(fetchMock, '/api/account/email').filter(([, init]) => init?.method === 'POST');
    expect(bodyOf(posted)).toEqual({ email: 'maya@new.example', currentPassword: 'correct horse battery' });

    await user.click(screen.getByRole('button', { name: 'Cancel Change' }));
    await waitFor(() => expect(screen.queryByText(/is pending verification/)).toBeNull());
  });

  it("shows 'Not verified' only where mail could verify the address", async () => {
    for (const canMail of [true, false]) {
      stubApi({
        'GET /api/auth/user': () => json(200, createAuthUser({ emailVerifiedAt: null })),
        'GET /api/auth/providers': options(canMail),
        'GET /api/account/email': noPendingChange,
        'GET /api/account/sign-ins': withPassword,
      });
      renderApp('/account');
      await screen.findByRole('heading', { name: 'Email' });
      // The server's answer has arrived once the email part says what can be done here.
      if (canMail) await screen.findByRole('button', { name: 'Change Email' });
      else await screen.findByText(/This server cannot send email/);
      expect(screen.queryByText('Not verified') !== null).toBe(canMail);
      cleanup();
    }
  });

  it('says a server without mail cannot confirm a new email', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(false),
      'GET /api/account/email': noPendingChange,
      'GET /api/account/sign-ins': withPassword,
    });
    renderApp('/account');
    expect(
      await screen.findByText(
        'This server cannot send email, so a new address cannot be confirmed here. Ask the administrator to change it.',
      ),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Change Email' })).toBeNull();
  });

  it('changes the password, saying a short one is too short and a wrong current one is wrong', async () => {
    let attempts = 0;
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(true),
      'GET /api/account/email': noPendingChange,
      'GET /api/account/sign-ins': withPassword,
      'POST /api/account/password': () =>
        (attempts += 1) === 1
          ? json(403, { code: 'wrong_password', message: 'Your current password is not right.' })
          : json(200, { message: 'Your password was changed. You were signed out everywhere else.' }),
    });
    const user = userEvent.setup();
    renderApp('/account');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('New password'), 'short');
    expect(within(form).getByText('The new password must be at least 8 characters: 3 more to go.')).toBeDefined();
    await user.type(within(form).getByLabelText('New password'), ' but longer');
    expect(within(form).queryByText(/must be at least/)).toBeNull();
    await user.type(within(form).getByLabelText('New password again'), 'short but lo');
    await user.type(within(form).getByLabelText('New password again'), 'x');
    expect(within(form).getByText('The two new passwords differ.')).toBeDefined();
    await user.clear(within(form).getByLabelText('New password again'));
    await user.type(within(form).getByLabelText('New password again'), 'short but longer');
    await user.type(within(form).getByLabelText('Current password'), 'a wrong one');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('Your current password is not right.')).toBeDefined();

    await user.clear(within(form).getByLabelText('Current password'));
    await user.type(within(form).getByLabelText('Current password'), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(
      await within(form).findByText('Your password was changed. You were signed out everywhere else.'),
    ).toBeDefined();
    expect(bodyOf(callsTo(fetchMock, '/api/account/password'), 1)).toEqual({
      currentPassword: 'correct horse battery',
      newPassword: 'short but longer',
    });
    expect(within(form).getByLabelText<HTMLInputElement>('New password').value).toBe('');
  });

  it('deletes the account after the same confirmation as the admin page, then signs out to /login', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    let attempts = 0;
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(true),
      'GET /api/account/email': noPendingChange,
      'GET /api/account/sign-ins': withPassword,
      'DELETE /api/account': () =>
        (attempts += 1) === 1
          ? json(403, { code: 'wrong_password', message: 'Your current password is not right.' })
          : json(200, { message: 'Your account and all its data were deleted.' }),
    });
    const user = userEvent.setup();
    renderApp('/account');
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Account' });
    expect(
      within(dialog).getByText(
        'Are you sure you want to delete your account maya@example.com? This action cannot be undone and will permanently delete all your data.',
      ),
    ).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(within(dialog).getByText('Please enter your password.')).toBeDefined();
    expect(callsTo(fetchMock, '/api/account')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Your password'), 'not it{Enter}');
    expect(await within(dialog).findByText('Your current password is not right.')).toBeDefined();
    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        `/login?message=${encodeURIComponent('Your account and all its data were deleted.')}`,
      ),
    );
    expect(bodyOf(callsTo(fetchMock, '/api/account'), 1)).toEqual({ password: 'correct horse battery' });
    assign.mockRestore();
  });

  it('asks an account without a password to type its email to delete it', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/auth/providers': options(true),
      'GET /api/account/email': noPendingChange,
      'GET /api/account/sign-ins': () => json(200, { hasPassword: false, identities: [] }),
      'DELETE /api/account': () => json(200, { message: 'Your account and all its data were deleted.' }),
    });
    const user = userEvent.setup();
    renderApp('/account');
    expect(await screen.findByText(/This account has no password to change yet/)).toBeDefined();
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Account' });
    await user.type(within(dialog).getByLabelText('Type maya@example.com to confirm'), 'maya@example.com{Enter}');
    await waitFor(() => expect(callsTo(fetchMock, '/api/account')).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, '/api/account'))).toEqual({ email: 'maya@example.com' });
    assign.mockRestore();
  });
});

describe('the login page without mail', () => {
  it("names the operator's contact for a reset link", async () => {
    stubApi({
      'GET /api/auth/user': () => json(401, { code: 'unauthorized', message: 'Not signed in' }),
      'GET /api/auth/providers': () =>
        json(200, { oidc: null, google: false, passwordReset: false, operatorContact: 'help@operator.example' }),
    });
    renderApp('/login');
    const link = await screen.findByRole('link', { name: 'help@operator.example' });
    expect(link.getAttribute('href')).toBe('mailto:help@operator.example');
    expect(link.closest('p')?.textContent).toBe(
      'Forgot your password? Ask the operator of this server for a reset link: help@operator.example.',
    );
  });
});
