import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { creditLedger, users } from '../../db/schema';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.db, { isAdmin: true, subscriptionStatus: 'premium_unlimited' });
  cookie = await signIn(t.app, admin);
});
afterAll(async () => {
  await t.close();
});

const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe('admin edits of hundredths', () => {
  it('renames a user who made an economy video (x.50 credits) without touching the credits', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1250 });
    await t.db.update(users).set({ creditsUsedHundredths: 50 }).where(eq(users.id, user.id));
    const listed = await injectJson(t.app, 'GET', `/api/admin/users?q=${encodeURIComponent(user.email)}`, { cookie });
    const seen = listed.json()[0];
    expect(seen).toMatchObject({ availableCredits: 12.5, totalCreditsUsed: 0.5 });
    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie,
      body: {
        firstName: 'Renamed',
        lastName: seen.lastName,
        email: seen.email,
        availableCredits: seen.availableCredits,
        totalCreditsUsed: seen.totalCreditsUsed,
        subscriptionStatus: seen.subscriptionStatus,
        original: {
          firstName: seen.firstName,
          lastName: seen.lastName,
          email: seen.email,
          availableCredits: seen.availableCredits,
          totalCreditsUsed: seen.totalCreditsUsed,
          subscriptionStatus: seen.subscriptionStatus,
        },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({
      firstName: 'Renamed',
      creditsHundredths: 1250,
      creditsUsedHundredths: 50,
    });
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
  });

  it('sets credits to the hundredth, and refuses a third decimal', async () => {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const body = (availableCredits: number) => ({
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      availableCredits,
      totalCreditsUsed: 0,
      subscriptionStatus: 'inactive',
      original: { availableCredits: 1 },
    });
    const ok = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, { cookie, body: body(7.29) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await rowOf(user.id))?.creditsHundredths).toBe(729);
    const [row] = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(row).toMatchObject({ kind: 'admin_adjustment', deltaHundredths: 629, balanceAfterHundredths: 729 });

    const bad = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie,
      body: { ...body(7.295), original: { availableCredits: 7.29 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('at most two decimals');
    expect((await rowOf(user.id))?.creditsHundredths).toBe(729);
  });
});
