import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signedInAdmin, signIn } from '../../../../tests/support/factories';
import type { AdminUser } from '../../../shared/admin';
import { creditLedger, users } from '../../db/schema';

let t: TestApp;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie: adminCookie } = await signedInAdmin(t.app, t.db, 'admin'));
});
afterAll(async () => {
  await t.close();
});

/** The row as the admin table shows it. */
async function shownRow(id: string): Promise<AdminUser> {
  const list = await injectJson(t.app, 'GET', '/api/admin/users?limit=500', { cookie: adminCookie });
  const row = list.json<AdminUser[]>().find((u) => u.id === id);
  if (!row) throw new Error('user not listed');
  return row;
}

/** What the edit row sends: the inputs, and the row as it was shown. */
const edit = (shown: AdminUser, changes: Partial<AdminUser>) => {
  const draft = { ...shown, ...changes };
  const { firstName, lastName, email, availableCredits, totalCreditsUsed, subscriptionStatus } = draft;
  return {
    firstName,
    lastName,
    email,
    availableCredits,
    totalCreditsUsed,
    subscriptionStatus,
    original: {
      firstName: shown.firstName,
      lastName: shown.lastName,
      email: shown.email,
      availableCredits: shown.availableCredits,
      totalCreditsUsed: shown.totalCreditsUsed,
      subscriptionStatus: shown.subscriptionStatus,
    },
  };
};

const balanceOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;

describe('an administrator editing a user who is spending credits', () => {
  it('renames without giving back a credit spent while the row was open', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000, firstName: 'Ann' });
    const shown = await shownRow(user.id);
    const cookie = await signIn(t.app, user);
    const spent = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A lighthouse at dawn', model: 'local' },
    });
    expect(spent.statusCode).toBe(201);
    const afterSpend = await balanceOf(user.id);
    expect(afterSpend).toBeLessThan(1000);

    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: edit(shown, { firstName: 'Anna' }),
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.firstName).toBe('Anna');
    expect(row?.creditsHundredths).toBe(afterSpend);
    const adjustments = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(adjustments.filter((r) => r.kind === 'admin_adjustment')).toHaveLength(0);
  });

  it('refuses a credit change made on a figure that is no longer true, changing nothing', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000, firstName: 'Ben' });
    const shown = await shownRow(user.id);
    const cookie = await signIn(t.app, user);
    expect(
      (
        await injectJson(t.app, 'POST', '/api/video-generation', {
          cookie,
          body: { prompt: 'A red kite', model: 'local' },
        })
      ).statusCode,
    ).toBe(201);
    const afterSpend = await balanceOf(user.id);

    const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: edit(shown, { availableCredits: 50, firstName: 'Benjamin' }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'stale_edit',
      message: expect.stringContaining("This user's credits changed while you were editing"),
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(afterSpend);
    expect(row?.firstName).toBe('Ben');

    // Seen again, the same change goes through.
    const again = await injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: edit(await shownRow(user.id), { availableCredits: 50 }),
    });
    expect(again.statusCode).toBe(200);
    expect(await balanceOf(user.id)).toBe(5000);
  });
});
