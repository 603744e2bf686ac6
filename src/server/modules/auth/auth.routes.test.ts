import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uniqueEmail } from '../../../../tests/support/factories';
import { sessions, users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  injectJson(t.app, 'POST', '/api/auth/register', { body, headers });

describe('registration', () => {
  it('makes the first account the unlimited administrator, and only the first', async () => {
    const first = await register({
      email: '  First@Example.COM ',
      password: 'longenough',
      firstName: 'Ada',
      lastName: '',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      email: 'first@example.com',
      firstName: 'Ada',
      lastName: null,
      displayName: 'Ada',
      isAdmin: true,
      plan: 'JUST_FOR_FUN',
      subscriptionStatus: 'premium_unlimited',
    });
    const second = await register({
      email: uniqueEmail(),
      password: 'longenough',
      firstName: 'Bob',
      lastName: 'Smith',
    });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ isAdmin: false, subscriptionStatus: 'inactive', displayName: 'Bob Smith' });
  });

  it('signs the new user in with an HttpOnly, SameSite=Lax session cookie', async () => {
    const response = await register({ email: uniqueEmail(), password: 'longenough', firstName: 'Cy' });
    const cookie = response.cookies.find((c) => c.name === 'rs_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const me = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: sessionCookieFrom(response) });
    expect(me.statusCode).toBe(200);
    expect(me.json().firstName).toBe('Cy');
  });

  it('refuses a taken email whatever its case with 409 and keeps one row', async () => {
    const email = uniqueEmail('taken');
    expect((await register({ email, password: 'longenough', firstName: 'A' })).statusCode).toBe(201);
    const again = await register({ email: email.toUpperCase(), password: 'otherpassword', firstName: 'B' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'email_taken', message: 'An account with this email already exists' });
    const rows = await t.db.select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(1);
  });

  it('names the field that is wrong and writes nothing', async () => {
    const email = uniqueEmail('bad');
    const short = await register({ email, password: 'short', firstName: 'A' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ code: 'validation_failed', message: 'password: must be at least 8 characters' });
    const noName = await register({ email, password: 'longenough', firstName: '   ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toContain('firstName');
    const badEmail = await register({ email: 'not-an-email', password: 'longenough', firstName: 'A' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain('email');
    const mistyped = await register({ email, password: 12345678, firstName: 'A' });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().message).toContain('password');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});

describe('sign-in', () => {
  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const user = await createUser(t.db);
    const wrong = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'nope-nope' },
    });
    const unknown = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email: uniqueEmail('ghost'), password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 'invalid_credentials',
      message:
        'Invalid email or password. 4 tries left before sign-in to this account from your network is paused for 15 minutes.',
    });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('issues a fresh session id at every sign-in and accepts a differently cased email', async () => {
    const user = await createUser(t.db);
    const first = await signIn(t.app, user);
    const second = await signIn(t.app, { email: user.email.toUpperCase(), password: user.password });
    expect(second).not.toBe(first);
    for (const cookie of [first, second]) {
      expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
    }
  });
});

describe('sessions', () => {
  it('answers 401 to the auth check when signed out or with a forged cookie', async () => {
    expect((await injectJson(t.app, 'GET', '/api/auth/user')).statusCode).toBe(401);
    const forged = await injectJson(t.app, 'GET', '/api/auth/user', { cookie: 'rs_session=forged-token' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ code: 'unauthorized', message: 'Please sign in to continue' });
  });

  it('deletes the session on logout so the old cookie no longer works', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const before = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(before).toHaveLength(1);
    const out = await injectJson(t.app, 'POST', '/api/auth/logout', { cookie });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'You have been signed out.' });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
  });

  it('does not sign out on GET /api/logout: it asks, with a button that POSTs to /api/logout', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('<b>asks</b>') });
    const cookie = await signIn(t.app, user);
    const page = await injectJson(t.app, 'GET', '/api/logout', { cookie, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<form method="post" action="/api/logout">');
    expect(page.body).toContain('&lt;b&gt;asks&lt;/b&gt;');
    expect(page.body).not.toContain('<b>asks</b>');
    expect(page.cookies.find((c) => c.name === 'rs_session')).toBeUndefined();
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
  });

  it('sends a signed-out browser from GET /api/logout straight home', async () => {
    const response = await injectJson(t.app, 'GET', '/api/logout');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });

  it('signs out when the page form POSTs to /api/logout, then sends the browser home', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    expect(response.cookies.find((c) => c.name === 'rs_session')?.value).toBe('');
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
  });

  it('refuses a sign-out form posted from another site', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(response.statusCode).toBe(403);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
  });

  it('signs out everywhere: every session of the user stops working, other users keep theirs', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const here = await signIn(t.app, user);
    const phone = await signIn(t.app, user);
    const laptop = await signIn(t.app, user);
    const otherCookie = await signIn(t.app, other);
    const response = await injectJson(t.app, 'POST', '/api/auth/logout-all', { cookie: here });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'You have been signed out on every device (3 sessions ended).' });
    expect(response.cookies.find((c) => c.name === 'rs_session')?.value).toBe('');
    for (const cookie of [here, phone, laptop]) {
      expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: otherCookie })).statusCode).toBe(200);
  });

  it('needs a session to sign out everywhere, and refuses another site', async () => {
    expect((await injectJson(t.app, 'POST', '/api/auth/logout-all')).statusCode).toBe(401);
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const crossSite = await injectJson(t.app, 'POST', '/api/auth/logout-all', {
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(200);
  });

  it('rolls the 30-day expiry forward when the session is used', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    await t.db
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '2 days'` })
      .where(eq(sessions.userId, user.id));
    const response = await injectJson(t.app, 'GET', '/api/auth/user', { cookie });
    expect(response.statusCode).toBe(200);
    const renewed = response.cookies.find((c) => c.name === 'rs_session');
    expect(renewed?.expires?.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('refuses an expired session', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    await t.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, user.id));
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
  });
});

describe('user status', () => {
  it('shows credits stored in hundredths as numbers', async () => {
    const user = await createUser(t.db, { creditsHundredths: 350 });
    const cookie = await signIn(t.app, user);
    const response = await injectJson(t.app, 'GET', '/api/user/status', { cookie });
    expect(response.json()).toEqual({
      availableCredits: 3.5,
      isUnlimited: false,
      plan: 'JUST_FOR_FUN',
      planName: 'Credits',
    });
  });

  it('reports unlimited users and needs a session', async () => {
    const user = await createUser(t.db, { subscriptionStatus: 'premium_unlimited' });
    const cookie = await signIn(t.app, user);
    expect((await injectJson(t.app, 'GET', '/api/user/status', { cookie })).json().isUnlimited).toBe(true);
    expect((await injectJson(t.app, 'GET', '/api/user/status')).statusCode).toBe(401);
  });
});

describe('external sign-in when not configured', () => {
  it('tells the client no provider is configured', async () => {
    const response = await injectJson(t.app, 'GET', '/api/auth/providers');
    expect(response.json()).toEqual({
      oidc: null,
      google: false,
      passwordReset: false,
      registrationChallenge: false,
      operatorContact: null,
      registrationOpen: true,
    });
  });

  it.each([
    ['/api/login', 'Single sign-on'],
    ['/api/auth/google', 'Google sign-in'],
  ])('%s redirects to /login with an oauth_error notice', async (url, name) => {
    const response = await injectJson(t.app, 'GET', url);
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string, 'http://x');
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('error')).toBe('oauth_error');
    expect(location.searchParams.get('details')).toContain(`${name} is not configured on this server`);
  });
});

describe('cross-site protection', () => {
  it('refuses a state-changing request from another origin with 403', async () => {
    const email = uniqueEmail('csrf');
    const response = await register(
      { email, password: 'longenough', firstName: 'Eve' },
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('cross_site_request');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('accepts the same origin', async () => {
    const response = await register(
      { email: uniqueEmail(), password: 'longenough', firstName: 'Sam' },
      { origin: 'http://localhost:3000' },
    );
    expect(response.statusCode).toBe(201);
  });
});

describe('first administrator', () => {
  it('makes exactly one administrator when the first registrations race', async () => {
    const fresh = await createTestApp();
    try {
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          injectJson(fresh.app, 'POST', '/api/auth/register', {
            body: { email: uniqueEmail(`race${i}`), password: 'longenough', firstName: 'R' },
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
      const admins = await fresh.db.select().from(users).where(eq(users.isAdmin, true));
      expect(admins).toHaveLength(1);
      expect(admins[0]?.subscriptionStatus).toBe('premium_unlimited');
    } finally {
      await fresh.close();
    }
  });
});
