import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { AccessToken, CreatedAccessToken, TokenScope } from '../../../shared/api-tokens';
import { apiTokens, creditLedger, users } from '../../db/schema';
import { TOKEN_REQUESTS_PER_MINUTE } from '../auth/auth.hooks';

let t: TestApp;
beforeAll(async () => {
  // No worker: generations stay pending, which is all these rules need.
  t = await createTestApp();
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t.close();
});

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, overrides);
  return { user, cookie: await signIn(t.app, user) };
}

const ALL: TokenScope[] = ['videos:read', 'videos:write', 'uploads:write', 'account:read'];

async function makeToken(cookie: string, scopes: TokenScope[] = ALL, extra: object = {}): Promise<CreatedAccessToken> {
  const response = await injectJson(t.app, 'POST', '/api/account/tokens', {
    cookie,
    body: { name: 'CI script', scopes, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedAccessToken>();
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const withToken = (
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => injectJson(t.app, method, url, { headers: { ...bearer(token), ...headers }, body });
const ledgerOf = (id: string) => t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
const balanceOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;

describe('creating, listing and revoking tokens', () => {
  it('answers the token once, stores only its hash, and lists it without the secret', async () => {
    const { user, cookie } = await signedInUser();
    const created = await makeToken(cookie, ['videos:read', 'account:read'], { expiresAt: '2099-01-01T00:00:00Z' });
    expect(created).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^rs_[A-Za-z0-9_-]{43}$/),
      name: 'CI script',
      scopes: ['videos:read', 'account:read'],
      expiresAt: '2099-01-01T00:00:00.000Z',
      createdAt: expect.any(String),
    });
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.userId, user.id));
    expect(row?.tokenHash).toBe(createHash('sha256').update(created.token).digest('base64url'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(3));

    const list = await injectJson(t.app, 'GET', '/api/account/tokens', { cookie });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token.slice(3));
    expect(list.json<{ tokens: AccessToken[] }>().tokens).toEqual([
      { ...Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'token')), lastUsedAt: null },
    ]);

    // Using it marks it used.
    expect((await withToken('GET', '/api/auth/user', created.token)).statusCode).toBe(200);
    const used = (await injectJson(t.app, 'GET', '/api/account/tokens', { cookie })).json<{ tokens: AccessToken[] }>();
    expect(used.tokens[0]?.lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a bad name, an unknown or repeated scope and an expiry in the past, creating nothing', async () => {
    const { user, cookie } = await signedInUser();
    for (const body of [
      { name: '', scopes: ['videos:read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['videos:read', 'videos:read'] },
      { name: 'x', scopes: ['videos:read'], expiresAt: 'tomorrow' },
      { name: 'x', scopes: ['videos:read'], expiresAt: '2001-01-01T00:00:00Z' },
    ]) {
      const response = await injectJson(t.app, 'POST', '/api/account/tokens', { cookie, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await t.db.select().from(apiTokens).where(eq(apiTokens.userId, user.id))).toEqual([]);
  });

  it("revokes a token (then 401), and never another user's", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const { id, token } = await makeToken(owner.cookie);
    const stranger = await injectJson(t.app, 'DELETE', `/api/account/tokens/${id}`, { cookie: other.cookie });
    expect(stranger.statusCode).toBe(404);
    expect((await withToken('GET', '/api/video-generation', token)).statusCode).toBe(200);
    expect((await injectJson(t.app, 'DELETE', `/api/account/tokens/${id}`, { cookie: owner.cookie })).statusCode).toBe(
      200,
    );
    const after = await withToken('GET', '/api/video-generation', token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('invalid_token');
  });

  it('an expired token is 401', async () => {
    const { cookie } = await signedInUser();
    const { id, token } = await makeToken(cookie, ALL, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await withToken('GET', '/api/video-generation', token)).statusCode).toBe(200);
    await t.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, id));
    const expired = await withToken('GET', '/api/video-generation', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('token_expired');
  });

  it('an unknown or malformed bearer credential is 401, even with a valid session cookie beside it', async () => {
    const { cookie } = await signedInUser();
    for (const authorization of ['Bearer rs_' + 'A'.repeat(43), 'Bearer nonsense', 'Bearer', 'bearer  ']) {
      const response = await injectJson(t.app, 'GET', '/api/video-generation', { cookie, headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
  });
});

describe('what a token may reach', () => {
  it('a token without videos:write gets 403 on generate, charging nothing', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 500 });
    const { token } = await makeToken(cookie, ['videos:read', 'uploads:write', 'account:read']);
    const response = await withToken('POST', '/api/video-generation', token, { prompt: 'A lighthouse at dusk' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'missing_scope',
      message: 'This access token does not have the "videos:write" scope this request needs.',
    });
    expect(await ledgerOf(user.id)).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(500);
  });

  it('a token with videos:write generates, charged to its user exactly as the browser is', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 500 });
    const { token } = await makeToken(cookie, ['videos:write', 'videos:read']);
    const byToken = await withToken('POST', '/api/video-generation', token, { prompt: 'A lighthouse at dusk' });
    expect(byToken.statusCode, byToken.body).toBe(201);
    const byCookie = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A lighthouse at dusk' },
    });
    expect(byCookie.statusCode).toBe(201);
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(2);
    expect(ledger[0]?.deltaHundredths).toBe(ledger[1]?.deltaHundredths);
    expect(await balanceOf(user.id)).toBe(500 + 2 * (ledger[0]?.deltaHundredths ?? 0));
    const listed = (await withToken('GET', '/api/video-generation', token)).json<{ id: string }[]>();
    expect(listed.map((r) => r.id).sort()).toEqual([byToken.json().id, byCookie.json().id].sort());
  });

  it("an administrator's token with every scope gets 403 on admin, payment, token and account routes", async () => {
    const { cookie } = await signedInUser({ isAdmin: true });
    const { token } = await makeToken(cookie);
    expect((await injectJson(t.app, 'GET', '/api/admin/stats', { cookie })).statusCode).toBe(200);
    const id = '00000000-0000-4000-8000-000000000000';
    const refused: [method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: object][] = [
      ['GET', '/api/admin/stats'],
      ['GET', '/api/admin/users'],
      ['PATCH', `/api/admin/users/${id}`, { firstName: 'x' }],
      ['DELETE', `/api/admin/users/${id}`],
      ['GET', '/api/payments/receipts'],
      ['POST', '/api/credits/checkout', { packageId: 'p10' }],
      ['GET', '/api/account/tokens'],
      ['POST', '/api/account/tokens', { name: 'escalate', scopes: ['videos:read'] }],
      ['DELETE', `/api/account/tokens/${id}`],
      ['GET', '/api/account/sign-ins'],
      ['DELETE', `/api/account/identities/${id}`],
      ['POST', '/api/auth/logout-all'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/events'],
      ['POST', '/api/errors/report', { message: 'x' }],
    ];
    for (const [method, url, body] of refused) {
      const response = await withToken(method, url, token, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json().code).toBe('token_not_allowed');
    }
    // Still only the cookie's session made a token.
    const list = (await injectJson(t.app, 'GET', '/api/account/tokens', { cookie })).json<{ tokens: unknown[] }>();
    expect(list.tokens).toHaveLength(1);
  });

  it("reaches each scope's routes and no others", async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 100 });
    const account = (await makeToken(cookie, ['account:read'])).token;
    const read = (await makeToken(cookie, ['videos:read'])).token;
    expect((await withToken('GET', '/api/user/balance', account)).statusCode).toBe(200);
    expect((await withToken('GET', '/api/auth/user', account)).statusCode).toBe(200);
    expect((await withToken('GET', '/api/video-generation', account)).statusCode).toBe(403);
    expect((await withToken('POST', '/api/objects/upload', account)).statusCode).toBe(403);
    expect((await withToken('GET', '/api/models', read)).statusCode).toBe(200);
    expect((await withToken('GET', '/api/user/balance', read)).statusCode).toBe(403);
  });
});

describe('cross-site checks and rate limits', () => {
  it('a bearer request is not refused as cross-site; a cookie request from another site still is', async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 500 });
    const { token } = await makeToken(cookie);
    const origin = { origin: 'https://elsewhere.example' };
    const byToken = await withToken('POST', '/api/video-generation', token, { prompt: 'A harbour' }, origin);
    expect(byToken.statusCode, byToken.body).toBe(201);
    const byCookie = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      headers: origin,
      body: { prompt: 'A harbour' },
    });
    expect(byCookie.statusCode).toBe(403);
    expect(byCookie.json().code).toBe('cross_site_request');
  });

  it('limits each token on its own', async () => {
    const { cookie } = await signedInUser();
    const first = (await makeToken(cookie, ['videos:read'])).token;
    const second = (await makeToken(cookie, ['videos:read'])).token;
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) {
      const response = await withToken('GET', '/api/models', first);
      if (response.statusCode !== 200) throw new Error(`request ${i}: ${response.statusCode}`);
    }
    const over = await withToken('GET', '/api/models', first);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withToken('GET', '/api/models', second)).statusCode).toBe(200);
    expect((await injectJson(t.app, 'GET', '/api/models', { cookie })).statusCode).toBe(200);
  });
});
