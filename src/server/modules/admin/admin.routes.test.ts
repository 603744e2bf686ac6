import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signedInAdmin, signIn, uniqueEmail } from '../../../../tests/support/factories';
import { adminAuditLog, creditLedger, sessions, users } from '../../db/schema';

let t: TestApp;
let adminCookie: string;
let admin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, cookie: adminCookie } = await signedInAdmin(t.app, t.db, 'admin'));
});
afterAll(async () => {
  await t.close();
});

const editPayload = (user: { email: string; firstName: string | null; lastName: string | null }, overrides = {}) => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  availableCredits: 0,
  totalCreditsUsed: 0,
  subscriptionStatus: 'inactive',
  ...overrides,
});

describe('access', () => {
  it('answers 401 signed out and 403 to a signed-in non-admin on every admin endpoint', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const calls = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/stats'],
      ['PATCH', `/api/admin/users/${user.id}`],
      ['DELETE', `/api/admin/users/${admin.id}`],
    ] as const;
    for (const [method, url] of calls) {
      const body = method === 'PATCH' ? editPayload(user, { availableCredits: 1000 }) : undefined;
      expect((await injectJson(t.app, method, url, { body })).statusCode).toBe(401);
      const denied = await injectJson(t.app, method, url, { cookie, body });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({
        code: 'not_admin',
        message: 'You do not have administrator privileges to access this page',
      });
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(0);
  });
});

describe('editing a user', () => {
  it('sets credits from 0 to 25 with a ledger row naming the admin and an audit row', async () => {
    const user = await createUser(t.db, { firstName: 'Grace', lastName: 'Hopper' });
    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: editPayload(user, { availableCredits: 25, firstName: '  Grace ', lastName: '' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `${user.email} was updated.` });

    const status = await injectJson(t.app, 'GET', '/api/user/status', { cookie: await signIn(t.app, user) });
    expect(status.json().availableCredits).toBe(25);

    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      deltaHundredths: 2500,
      balanceAfterHundredths: 2500,
      kind: 'admin_adjustment',
      actor: `admin:${admin.email}`,
      actorUserId: admin.id,
    });
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ action: 'user.update', actorUserId: admin.id });
    expect(audits[0]?.before).toMatchObject({ availableCredits: 0, lastName: 'Hopper' });
    expect(audits[0]?.after).toMatchObject({ availableCredits: 25, lastName: null, firstName: 'Grace' });

    const [listed] = (
      await injectJson(t.app, 'GET', `/api/admin/users?q=${encodeURIComponent(user.email)}`, { cookie: adminCookie })
    ).json();
    expect(listed).toMatchObject({
      email: user.email,
      availableCredits: 25,
      totalLifetimeCredits: 25,
      creditsLast30Days: 25,
      totalCreditsUsed: 0,
      displayName: 'Grace',
    });
  });

  it.each([
    ['negative credits', { availableCredits: -1 }, 'availableCredits'],
    ['credits finer than a hundredth', { availableCredits: 2.505 }, 'availableCredits'],
    ['an unknown status', { subscriptionStatus: 'gold' }, 'subscriptionStatus'],
    ['an invalid email', { email: 'nope' }, 'email'],
    ['negative credits used', { totalCreditsUsed: -3 }, 'totalCreditsUsed'],
  ])('refuses %s with 400 and changes nothing', async (_name, overrides, field) => {
    const user = await createUser(t.db, { creditsHundredths: 700 });
    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: editPayload(user, { availableCredits: 9, ...overrides }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(700);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
  });

  it('refuses a taken email with 409 and changes nothing', async () => {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const other = await createUser(t.db);
    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: editPayload(user, { email: other.email.toUpperCase(), availableCredits: 50 }),
    });
    expect(response.statusCode).toBe(409);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email, creditsHundredths: 100 });
    expect(await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id))).toHaveLength(0);
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    const unknown = await injectJson(t.app, 'PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', {
      cookie: adminCookie,
      body: editPayload({ email: uniqueEmail(), firstName: 'A', lastName: null }),
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await injectJson(t.app, 'DELETE', '/api/admin/users/42', { cookie: adminCookie });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('deleting a user', () => {
  it('removes the user and their data and signs them out at once', async () => {
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: editPayload(user, { availableCredits: 5 }),
    });
    const response = await injectJson(t.app, 'DELETE', `/api/admin/users/${user.id}`, { cookie: adminCookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `${user.email} and all their data were deleted.` });
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audits.map((a) => a.action)).toEqual(['user.update', 'user.delete']);
  });

  it('refuses to delete the last administrator with 409', async () => {
    const fresh = await createTestApp();
    try {
      const only = await createUser(fresh.db, { isAdmin: true });
      const cookie = await signIn(fresh.app, only);
      const response = await injectJson(fresh.app, 'DELETE', `/api/admin/users/${only.id}`, { cookie });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('last_admin');
      expect(await fresh.db.select().from(users).where(eq(users.id, only.id))).toHaveLength(1);

      const second = await createUser(fresh.db, { isAdmin: true });
      const ok = await injectJson(fresh.app, 'DELETE', `/api/admin/users/${second.id}`, { cookie });
      expect(ok.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('listing', () => {
  let listApp: TestApp;
  let cookie: string;
  beforeAll(async () => {
    listApp = await createTestApp();
    const owner = await createUser(listApp.db, { isAdmin: true, email: 'owner@example.com' });
    cookie = await signIn(listApp.app, owner);
    // 1,000 users with varied credits and names, created in one statement.
    await listApp.db.execute(sql`
      INSERT INTO users (email, first_name, last_name, credits_hundredths, credits_added_hundredths, created_at)
      SELECT 'bulk' || g || '@example.com', 'Name' || (g % 37), 'Bulk', (g * 7919) % 5000, (g * 104729) % 9000,
             now() - (g || ' minutes')::interval
      FROM generate_series(1, 1000) AS g`);
  });
  afterAll(async () => {
    await listApp.close();
  });

  async function allPages(query: string): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i += 1) {
      const url = `/api/admin/users?${query}&limit=150${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await injectJson(listApp.app, 'GET', url, { cookie });
      expect(response.statusCode).toBe(200);
      rows.push(...response.json());
      cursor = response.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    return rows;
  }

  it('answers the first 100 newest first with no parameters, and a cursor for more', async () => {
    const response = await injectJson(listApp.app, 'GET', '/api/admin/users', { cookie });
    const rows = response.json<{ createdAt: string }[]>();
    expect(rows).toHaveLength(100);
    expect(response.headers['x-next-cursor']).toBeTruthy();
    const times = rows.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it.each([
    ['availableCredits', 'asc'],
    ['availableCredits', 'desc'],
    ['totalLifetimeCredits', 'desc'],
    ['email', 'asc'],
    ['name', 'desc'],
    ['createdAt', 'asc'],
  ])('pages through all 1,001 users sorted by %s %s, in order, without repeats', async (sort, order) => {
    const rows = await allPages(`sort=${sort}&order=${order}`);
    expect(rows).toHaveLength(1001);
    expect(new Set(rows.map((r) => r.id)).size).toBe(1001);
    const key = (r: Record<string, unknown>) =>
      sort === 'name'
        ? String(r.displayName).toLowerCase()
        : sort === 'createdAt'
          ? Date.parse(String(r.createdAt))
          : r[sort];
    for (let i = 1; i < rows.length; i += 1) {
      const [a, b] = [key(rows[i - 1]!), key(rows[i]!)] as [number | string, number | string];
      if (order === 'asc') expect(a <= b).toBe(true);
      else expect(a >= b).toBe(true);
    }
  });

  it('searches by email or name substring', async () => {
    const byEmail = await injectJson(listApp.app, 'GET', '/api/admin/users?q=bulk99%40', { cookie });
    expect(byEmail.json<{ email: string }[]>().map((r) => r.email)).toEqual(['bulk99@example.com']);
    const byName = await allPages('q=name36%20bulk');
    expect(byName.length).toBe(27);
    const none = await injectJson(listApp.app, 'GET', '/api/admin/users?q=%25%25', { cookie });
    expect(none.json()).toEqual([]);
  });

  it('refuses a forged cursor and a limit over 500 with 400', async () => {
    expect((await injectJson(listApp.app, 'GET', '/api/admin/users?cursor=abc', { cookie })).statusCode).toBe(400);
    expect((await injectJson(listApp.app, 'GET', '/api/admin/users?limit=501', { cookie })).statusCode).toBe(400);
    expect((await injectJson(listApp.app, 'GET', '/api/admin/users?sort=password', { cookie })).statusCode).toBe(400);
  });

  it('answers the four tiles over all users', async () => {
    const stats = (await injectJson(listApp.app, 'GET', '/api/admin/stats', { cookie })).json();
    expect(stats.totalUsers).toBe(1001);
    expect(stats).toHaveProperty('activeCredits');
    expect(stats).toHaveProperty('creditsUsed', 0);
    expect(stats).toHaveProperty('creditsLast30Days', 0);
  });
});
