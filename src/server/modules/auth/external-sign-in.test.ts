import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import {
  authorizeAtProvider,
  beginSignIn,
  finishSignIn,
  redirectTarget,
  signInThroughProvider,
} from '../../../../tests/support/external-sign-in';
import { createUser, signIn, uniqueEmail } from '../../../../tests/support/factories';
import {
  startImpostorIssuer,
  startTestIdentityProvider,
  type TestIdentityProvider,
} from '../../../../tests/support/identity-provider';
import { creditLedger, userIdentities, users } from '../../db/schema';

const APP_ORIGIN = 'http://localhost:3000';
const REDIRECT_URIS = [`${APP_ORIGIN}/api/callback`, `${APP_ORIGIN}/api/auth/google/callback`];

let idp: TestIdentityProvider;
let google: TestIdentityProvider;
let t: TestApp;

function envFor(oidcIssuer: string): Record<string, string> {
  return {
    OIDC_ISSUER_URL: oidcIssuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_BUTTON_LABEL: 'Continue with Test SSO',
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_ISSUER_URL: google.issuer,
  };
}

beforeAll(async () => {
  idp = await startTestIdentityProvider({ redirectUris: REDIRECT_URIS });
  google = await startTestIdentityProvider({ redirectUris: REDIRECT_URIS, claimsInIdToken: true });
  t = await createTestApp(envFor(idp.issuer));
});
afterAll(async () => {
  await t.close();
  await idp.close();
  await google.close();
});

let accountCounter = 0;
/** A person at a provider, with a verified email unless told otherwise. */
function person(provider: TestIdentityProvider, claims: { email?: string; email_verified?: boolean } = {}) {
  accountCounter += 1;
  const id = `person-${accountCounter}-${Math.random().toString(36).slice(2, 8)}`;
  const email = claims.email ?? uniqueEmail('oidc');
  provider.setAccount(id, {
    email,
    email_verified: claims.email_verified ?? true,
    given_name: 'Olga',
    family_name: 'Idp',
  });
  return { id, email };
}

const oidcSignIn = (app: TestApp, account: string, cookie?: string) =>
  signInThroughProvider(app.app, {
    startPath: '/api/login',
    account,
    appOrigin: APP_ORIGIN,
    ...(cookie ? { cookie } : {}),
  });

async function countRows(): Promise<{ users: number; identities: number }> {
  const [u] = await t.db.select({ n: count() }).from(users);
  const [i] = await t.db.select({ n: count() }).from(userIdentities);
  return { users: u?.n ?? 0, identities: i?.n ?? 0 };
}

describe('OpenID Connect sign-in at /api/login', () => {
  it('tells the client which providers are configured', async () => {
    const response = await injectJson(t.app, 'GET', '/api/auth/providers');
    expect(response.json()).toEqual({
      oidc: { label: 'Continue with Test SSO' },
      google: true,
      passwordReset: false,
      registrationChallenge: false,
      operatorContact: null,
      registrationOpen: true,
    });
  });

  it('sends the browser to the provider with PKCE, state and nonce, in a short-lived signed cookie', async () => {
    const { authorizationUrl, flowCookie } = await beginSignIn(t.app, '/api/login');
    expect(authorizationUrl.origin).toBe(idp.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorizationUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizationUrl.searchParams.get('nonce')).toBeTruthy();
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${APP_ORIGIN}/api/callback`);
    expect(flowCookie).toMatch(/^rs_signin_flow=[\w-]+\.[\w-]+$/);
  });

  it('creates an account with the sign-up credits at the first sign-in, and signs the same account in the second time', async () => {
    const alice = person(idp);
    const first = await oidcSignIn(t, alice.id);
    expect(redirectTarget(first)).toEqual({ path: '/dashboard', error: null, details: null });
    const me = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(first) });
    expect(me.json()).toMatchObject({ email: alice.email, firstName: 'Olga', lastName: 'Idp' });
    const [row] = await t.db.select().from(users).where(eq(users.email, alice.email));
    expect(row?.passwordHash).toBeNull();
    expect(row?.creditsHundredths).toBe(100);
    expect(
      await t.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.userId, row?.id ?? '')),
    ).toMatchObject([{ kind: 'grant', deltaHundredths: 100, reason: 'Sign-up credits' }]);

    const second = await oidcSignIn(t, alice.id);
    expect(redirectTarget(second).path).toBe('/dashboard');
    const again = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(second) });
    expect(again.json().id).toBe(me.json().id);
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, me.json().id))).toHaveLength(1);
  });

  it('links a verified email to the existing account with that email', async () => {
    const existing = await createUser(t.db);
    const bob = person(idp, { email: existing.email, email_verified: true });
    const response = await oidcSignIn(t, bob.id);
    expect(redirectTarget(response).path).toBe('/dashboard');
    const me = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(response) });
    expect(me.json().id).toBe(existing.id);
  });

  it('tells a suspended account so on the sign-in page, and signs it in once it is let in again (issue 44)', async () => {
    const existing = await createUser(t.db);
    const carol = person(idp, { email: existing.email, email_verified: true });
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, existing.id));
    const refused = await oidcSignIn(t, carol.id);
    expect(redirectTarget(refused)).toMatchObject({ path: '/login', error: 'account_suspended' });
    expect(refused.headers['set-cookie']?.toString() ?? '').not.toContain('rs_session=');
    await t.db.update(users).set({ suspendedAt: null }).where(eq(users.id, existing.id));
    expect(redirectTarget(await oidcSignIn(t, carol.id)).path).toBe('/dashboard');
  });

  it('never links an unverified email to an existing account', async () => {
    const existing = await createUser(t.db);
    const mallory = person(idp, { email: existing.email, email_verified: false });
    const before = await countRows();
    const response = await oidcSignIn(t, mallory.id);
    expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
    expect(redirectTarget(response).details).toContain('has not verified that this email is yours');
    expect(response.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
    expect(await countRows()).toEqual(before);
  });

  it('refuses a tampered state and creates nothing', async () => {
    const eve = person(idp);
    const started = await beginSignIn(t.app, '/api/login');
    started.authorizationUrl.searchParams.set('login_hint', eve.id);
    const callback = new URL(await authorizeAtProvider(started.authorizationUrl, APP_ORIGIN), APP_ORIGIN);
    callback.searchParams.set('state', 'forged-state');
    const before = await countRows();
    const response = await finishSignIn(t.app, `${callback.pathname}${callback.search}`, [started.flowCookie]);
    expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
    expect(await countRows()).toEqual(before);
  });

  it('refuses a tampered flow cookie, and a callback without one', async () => {
    const eve = person(idp);
    const started = await beginSignIn(t.app, '/api/login');
    started.authorizationUrl.searchParams.set('login_hint', eve.id);
    const callback = await authorizeAtProvider(started.authorizationUrl, APP_ORIGIN);
    const [payload = '', signature = ''] = started.flowCookie.replace('rs_signin_flow=', '').split('.');
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `rs_signin_flow=${Buffer.from(JSON.stringify({ ...flow, nonce: 'mine' })).toString('base64url')}.${signature}`;
    const before = await countRows();
    for (const cookies of [[forged], []]) {
      const response = await finishSignIn(t.app, callback, cookies);
      expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
      expect(redirectTarget(response).details).toContain('expired or was started in another browser');
    }
    expect(await countRows()).toEqual(before);
  });

  it('refuses a replayed code', async () => {
    const frank = person(idp);
    const started = await beginSignIn(t.app, '/api/login');
    started.authorizationUrl.searchParams.set('login_hint', frank.id);
    const callback = await authorizeAtProvider(started.authorizationUrl, APP_ORIGIN);
    expect(redirectTarget(await finishSignIn(t.app, callback, [started.flowCookie])).path).toBe('/dashboard');
    const before = await countRows();
    const replay = await finishSignIn(t.app, callback, [started.flowCookie]);
    expect(redirectTarget(replay)).toMatchObject({ path: '/login', error: 'oauth_error' });
    expect(replay.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
    expect(await countRows()).toEqual(before);
  });

  it('refuses an ID token issued for another nonce', async () => {
    const gina = person(idp);
    const started = await beginSignIn(t.app, '/api/login');
    started.authorizationUrl.searchParams.set('login_hint', gina.id);
    // The code was obtained with the attacker's own nonce and injected into this browser's flow.
    started.authorizationUrl.searchParams.set('nonce', 'the-attackers-nonce');
    const callback = await authorizeAtProvider(started.authorizationUrl, APP_ORIGIN);
    const before = await countRows();
    const response = await finishSignIn(t.app, callback, [started.flowCookie]);
    expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
    expect(await countRows()).toEqual(before);
  });

  it('refuses an ID token from another issuer', async () => {
    const impostor = await startImpostorIssuer(idp);
    const other = await createTestApp(envFor(impostor.issuer));
    try {
      const hank = person(idp);
      const started = await beginSignIn(other.app, '/api/login');
      expect(started.authorizationUrl.origin).toBe(idp.issuer);
      started.authorizationUrl.searchParams.set('login_hint', hank.id);
      const callback = new URL(await authorizeAtProvider(started.authorizationUrl, APP_ORIGIN), APP_ORIGIN);
      // Without the response's iss parameter, only the ID token's own iss can tell.
      callback.searchParams.delete('iss');
      const response = await finishSignIn(other.app, `${callback.pathname}${callback.search}`, [started.flowCookie]);
      expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
      expect(await other.db.select().from(users)).toHaveLength(0);
    } finally {
      await other.close();
      await impostor.close();
    }
  });

  it('ends on /login with the provider refusal as details, never an error page', async () => {
    const response = await injectJson(t.app, 'GET', '/api/callback?error=access_denied&state=x');
    expect(response.statusCode).toBe(302);
    expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'oauth_error' });
    // Hostile input in the provider's answer: the same, and nothing written.
    const before = await countRows();
    const started = await beginSignIn(t.app, '/api/login');
    const hostile = await finishSignIn(t.app, '/api/callback?code=%00%01&state=%00&iss=%00', [started.flowCookie]);
    expect(redirectTarget(hostile)).toMatchObject({ path: '/login', error: 'oauth_error' });
    expect(await countRows()).toEqual(before);
  });
});

describe('Google sign-in at /api/auth/google', () => {
  it('creates the account at the first sign-in and returns it the second time', async () => {
    const ivy = person(google);
    const signInGoogle = () =>
      signInThroughProvider(t.app, { startPath: '/api/auth/google', account: ivy.id, appOrigin: APP_ORIGIN });
    const first = await signInGoogle();
    expect(redirectTarget(first).path).toBe('/dashboard');
    const me = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(first) });
    expect(me.json().email).toBe(ivy.email);
    const second = await signInGoogle();
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(second) })).json().id).toBe(
      me.json().id,
    );
  });

  it('ends a failed Google sign-in on /login?error=google_auth_failed', async () => {
    const started = await beginSignIn(t.app, '/api/auth/google');
    const response = await finishSignIn(t.app, '/api/auth/google/callback?code=made-up&state=made-up', [
      started.flowCookie,
    ]);
    expect(redirectTarget(response)).toMatchObject({ path: '/login', error: 'google_auth_failed' });
  });
});

describe('linked sign-ins on the account page', () => {
  it('lists them, links another from a signed-in session, and never removes the last way to sign in', async () => {
    const jay = person(idp);
    const cookie = sessionCookieFrom(await oidcSignIn(t, jay.id));
    const jayAtGoogle = person(google, { email: jay.email });
    const linked = await signInThroughProvider(t.app, {
      startPath: '/api/auth/google',
      account: jayAtGoogle.id,
      appOrigin: APP_ORIGIN,
      cookie,
    });
    expect(linked.headers.location).toBe('/account?linked=google');

    const list = await injectJson(t.app, 'GET', '/api/account/sign-ins', { cookie });
    expect(list.json()).toMatchObject({
      hasPassword: false,
      identities: [
        { provider: 'oidc', providerName: 'Test SSO', email: jay.email },
        { provider: 'google', providerName: 'Google', email: jay.email },
      ],
    });
    const [oidcIdentity, googleIdentity] = list.json<{ identities: { id: string }[] }>().identities;
    const removed = await injectJson(t.app, 'DELETE', `/api/account/identities/${googleIdentity?.id}`, { cookie });
    expect(removed.statusCode).toBe(200);
    const last = await injectJson(t.app, 'DELETE', `/api/account/identities/${oidcIdentity?.id}`, { cookie });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('last_sign_in');
  });

  it("does not let one account remove another account's sign-in", async () => {
    const kim = person(idp);
    await oidcSignIn(t, kim.id);
    const [identity] = await t.db.select().from(userIdentities).where(eq(userIdentities.subject, kim.id));
    const stranger = await createUser(t.db);
    const cookie = await signIn(t.app, stranger);
    const response = await injectJson(t.app, 'DELETE', `/api/account/identities/${identity?.id}`, { cookie });
    expect(response.statusCode).toBe(404);
  });
});

describe('the first account created through OpenID Connect', () => {
  it('becomes the administrator, exactly one of several signing up at once', async () => {
    const fresh = await createTestApp(envFor(idp.issuer));
    try {
      const people = Array.from({ length: 5 }, () => person(idp));
      const responses = await Promise.all(people.map((p) => oidcSignIn(fresh, p.id)));
      expect(responses.map((r) => redirectTarget(r).path)).toEqual(people.map(() => '/dashboard'));
      const rows = await fresh.db.select().from(users);
      expect(rows).toHaveLength(5);
      expect(rows.filter((u) => u.isAdmin)).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});
