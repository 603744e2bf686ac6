import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { redirectTarget, signInThroughProvider } from '../../../../tests/support/external-sign-in';
import { uniqueEmail } from '../../../../tests/support/factories';
import { startTestIdentityProvider, type TestIdentityProvider } from '../../../../tests/support/identity-provider';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { users } from '../../db/schema';
import { settlePasswordResetMail } from './password-reset.service';
import { settleVerificationMail } from './email-verification.service';

// The pre-hijacking attacks of Sudhodanan and Paverd (USENIX Security 2022), through the real flows:
// password registration, the OpenID and Google stand-ins, and mail caught by a real SMTP server.
const APP_ORIGIN = 'http://localhost:3000';
const REDIRECT_URIS = [`${APP_ORIGIN}/api/callback`, `${APP_ORIGIN}/api/auth/google/callback`];

let idp: TestIdentityProvider;
let google: TestIdentityProvider;
let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  idp = await startTestIdentityProvider({ redirectUris: REDIRECT_URIS });
  google = await startTestIdentityProvider({ redirectUris: REDIRECT_URIS, claimsInIdToken: true });
  smtp = await startTestSmtpServer();
  t = await createTestApp({
    OIDC_ISSUER_URL: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_ISSUER_URL: google.issuer,
    SMTP_URL: smtp.url,
  });
  // The first account is the administrator; the attacks are on everyone else's.
  await register(uniqueEmail());
});
afterAll(async () => {
  await t?.close();
  await settleVerificationMail(t.ctx);
  await idp?.close();
  await google?.close();
  await smtp?.close();
});

let counter = 0;
const nextAddress = () => `192.0.2.${(counter += 1)}`;
function person(provider: TestIdentityProvider, email: string, emailVerified: boolean): string {
  const id = `person-${(counter += 1)}-${Math.random().toString(36).slice(2, 8)}`;
  provider.setAccount(id, { email, email_verified: emailVerified, given_name: 'Pat', family_name: 'Person' });
  return id;
}
const signInWith = (startPath: string, account: string) =>
  signInThroughProvider(t.app, { startPath, account, appOrigin: APP_ORIGIN });
const whoIs = async (cookie: string) => injectJson(t.app, 'GET', '/api/auth/user', { cookie });

async function register(email: string) {
  const response = await injectJson(t.app, 'POST', '/api/auth/register', {
    body: { email, password: 'stranger password 1', firstName: 'Reg', lastName: 'Istrant' },
    remoteAddress: nextAddress(),
  });
  return response;
}

async function resetPassword(email: string): Promise<ReturnType<typeof injectJson>> {
  const before = smtp.messages.length;
  await injectJson(t.app, 'POST', '/api/auth/password-reset', { body: { email }, remoteAddress: nextAddress() });
  await settlePasswordResetMail(t.ctx);
  await settleVerificationMail(t.ctx);
  const mail = smtp.messages.slice(before).find((m) => m.subject === 'Reset your Reelsmith password');
  const token = new URL(
    /(http:\S+reset-password\?token=[\w-]+)/.exec(mail?.text ?? '')?.[1] ?? 'http://x',
  ).searchParams.get('token');
  return injectJson(t.app, 'POST', '/api/auth/password-reset/confirm', {
    body: { token, password: 'the owner password' },
    remoteAddress: nextAddress(),
  });
}

describe('no account can be claimed before its owner', () => {
  it('attack 1: a verified Google sign-in takes an unverified password account away from the stranger who made it', async () => {
    const email = uniqueEmail('owner');
    const registered = await register(email);
    expect(registered.statusCode).toBe(201);
    const strangerCookie = sessionCookieFrom(registered);

    const owner = await signInWith('/api/auth/google', person(google, email, true));
    expect(redirectTarget(owner)).toEqual({ path: '/dashboard', error: null, details: null });
    const ownerCookie = sessionCookieFrom(owner);
    const me = await whoIs(ownerCookie);
    expect(me.json()).toMatchObject({ email, id: registered.json<{ id: string }>().id });
    expect(me.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();

    // The stranger's session and password no longer open it.
    expect((await whoIs(strangerCookie)).statusCode).toBe(401);
    const login = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email, password: 'stranger password 1' },
      remoteAddress: nextAddress(),
    });
    expect(login.statusCode).toBe(401);
    const signIns = await injectJson(t.app, 'GET', '/api/account/sign-ins', { cookie: ownerCookie });
    expect(signIns.json()).toMatchObject({ hasPassword: false, identities: [{ provider: 'google', email }] });
  });

  it('attack 2: an unverified OpenID claim neither blocks the owner registering nor lets the stranger into their account', async () => {
    const email = uniqueEmail('owner');
    const stranger = person(idp, email, false);
    const claimed = await signInWith('/api/login', stranger);
    expect(redirectTarget(claimed).path).toBe('/dashboard');
    const strangerId = (await whoIs(sessionCookieFrom(claimed))).json<{ id: string }>().id;

    const registered = await register(email);
    expect(registered.statusCode).toBe(201);
    const ownerId = registered.json<{ id: string }>().id;
    expect(ownerId).not.toBe(strangerId);
    const [ownerRow] = await t.db.select().from(users).where(eq(users.email, email));
    expect(ownerRow?.id).toBe(ownerId);

    // The stranger's sign-in opens only the stranger's own account, never the owner's.
    const again = await signInWith('/api/login', stranger);
    const landed = (await whoIs(sessionCookieFrom(again))).json<{ id: string; email: string }>();
    expect(landed.id).toBe(strangerId);
    expect(landed.email).not.toBe(email);
  });

  it('attack 2: resetting the password of an unverified claim removes the stranger’s linked sign-in', async () => {
    const email = uniqueEmail('owner');
    const stranger = person(idp, email, false);
    const claimed = await signInWith('/api/login', stranger);
    const strangerCookie = sessionCookieFrom(claimed);

    const reset = await resetPassword(email);
    expect(reset.statusCode).toBe(200);
    const ownerCookie = sessionCookieFrom(reset);
    const signIns = await injectJson(t.app, 'GET', '/api/account/sign-ins', { cookie: ownerCookie });
    expect(signIns.json()).toEqual({ hasPassword: true, identities: [] });
    expect((await whoIs(strangerCookie)).statusCode).toBe(401);

    const again = await signInWith('/api/login', stranger);
    expect(redirectTarget(again).error).not.toBeNull();
    expect(again.headers['set-cookie'] ?? '').not.toContain('rs_session=');
  });

  it('verifying the email removes sign-ins linked while it was unproven', async () => {
    const email = uniqueEmail('owner');
    const registered = await register(email);
    const cookie = sessionCookieFrom(registered);
    const linked = await signInThroughProvider(t.app, {
      startPath: '/api/auth/google',
      account: person(google, uniqueEmail('other'), true),
      appOrigin: APP_ORIGIN,
      cookie,
    });
    expect(linked.statusCode).toBe(302);
    await settleVerificationMail(t.ctx);
    const mail = smtp.messages.filter((m) => m.subject === 'Verify your Reelsmith email').at(-1);
    const token = new URL(
      /(http:\S+verify-email\?token=[\w-]+)/.exec(mail?.text ?? '')?.[1] ?? 'http://x',
    ).searchParams.get('token');
    const done = await injectJson(t.app, 'POST', '/api/auth/verify-email', {
      body: { token },
      remoteAddress: nextAddress(),
    });
    expect(done.statusCode).toBe(200);
    const signIns = await injectJson(t.app, 'GET', '/api/account/sign-ins', { cookie });
    expect(signIns.json()).toEqual({ hasPassword: true, identities: [] });
  });
});
