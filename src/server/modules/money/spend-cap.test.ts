import { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signedInAdmin, signIn } from '../../../../tests/support/factories';
import { makeMediaFixtures } from '../../../../tests/support/media';
import type { AdminUser } from '../../../shared/admin';
import type { GenerationRecord } from '../../../shared/generations';
import { adminAuditLog, creditLedger, generations, users } from '../../db/schema';

// The daily spend cap (DAILY_SPEND_CAP_CREDITS, and a user's own on the admin page): today's credit
// charges (UTC day, less those given back) plus the next must stay within it, under concurrency too.
// No worker runs: jobs stay queued, and a job's end is written as the worker would write it.

let t: TestApp;
let adminCookie: string;

beforeAll(async () => {
  // Every video on the local engine costs the spec's 1 credit; everyone may spend 2 a day.
  t = await createTestApp({ DAILY_SPEND_CAP_CREDITS: '2' });
  ({ cookie: adminCookie } = await signedInAdmin(t.app, t.db, 'op'));
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, { creditsHundredths: 10_000, ...overrides });
  return { user, cookie: await signIn(t.app, user) };
}
const generate = (cookie: string, body: object = {}) =>
  injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A lantern on the water', model: 'local', ...body },
  });
const chargedToday = async (userId: string) =>
  (
    await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.kind, 'charge')))
  ).reduce((sum, row) => sum - row.deltaHundredths, 0);
const jobsOf = (userId: string) => t.db.select().from(generations).where(eq(generations.userId, userId));
/** Ends the user's unfinished jobs as the worker would, so the unfinished-jobs limit does not stand in the cap's way. */
async function finishAll(userId: string, status: 'completed' | 'failed' = 'completed') {
  await t.db
    .update(generations)
    .set({ status, completedAt: new Date(), errorMessage: status === 'failed' ? 'The provider timed out.' : null })
    .where(and(eq(generations.userId, userId), inArray(generations.status, ['pending', 'processing'])));
}
/** The admin page's edit of a user: only the cap changes (the row as the administrator saw it goes with it). */
async function setCap(user: { id: string; email: string }, dailySpendCap: number | null) {
  const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error('no user');
  const seen = {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    availableCredits: row.creditsHundredths / 100,
    totalCreditsUsed: row.creditsUsedHundredths / 100,
    subscriptionStatus: row.subscriptionStatus,
  };
  const current = row.dailySpendCapHundredths === null ? null : row.dailySpendCapHundredths / 100;
  return injectJson(t.app, 'PATCH', `/api/admin/users/${user.id}`, {
    cookie: adminCookie,
    body: { ...seen, dailySpendCap, original: { ...seen, dailySpendCap: current } },
  });
}

/** 00:00 UTC on the next day, as the refusal's sentence writes it. */
function resetSentence(): string {
  const next = new Date(Date.now() + 86_400_000);
  const month = next.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `The limit resets at 00:00 UTC on ${next.getUTCDate()} ${month} ${next.getUTCFullYear()}.`;
}

describe('the daily spend cap', () => {
  it('lets exactly the allowed number of 50 concurrent requests through, and refuses the rest with when it resets', async () => {
    const { user, cookie } = await signedInUser();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => generate(cookie, { prompt: `Video ${i}` })));
    const accepted = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(accepted).toHaveLength(2);
    expect(refused).toHaveLength(48);
    for (const answer of refused) {
      expect(answer.statusCode, answer.body).toBe(429);
      expect(answer.json()).toEqual({
        code: 'daily_spend_cap',
        message: `This video costs 1 credit, which would take you past your daily spending limit of 2 credits (2 spent today). ${resetSentence()}`,
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    }
    expect(await chargedToday(user.id)).toBe(200);
    expect(await jobsOf(user.id)).toHaveLength(2);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(9_800);
  });

  it("follows a user's own cap over the default, 0 exempting them, and null bringing the default back; each edit audited", async () => {
    const { user, cookie } = await signedInUser();
    const edited = await setCap(user, 4);
    expect(edited.statusCode, edited.body).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await generate(cookie)).statusCode).toBe(201);
    await finishAll(user.id);
    for (let i = 0; i < 2; i += 1) expect((await generate(cookie)).statusCode).toBe(201);
    const fifth = await generate(cookie);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().message).toContain('your daily spending limit of 4 credits (4 spent today)');
    await finishAll(user.id);

    expect((await setCap(user, 0)).statusCode).toBe(200);
    expect((await generate(cookie)).statusCode).toBe(201);
    await finishAll(user.id);
    expect((await setCap(user, null)).statusCode).toBe(200);
    const back = await generate(cookie);
    expect(back.statusCode).toBe(429);
    expect(back.json().message).toContain('daily spending limit of 2 credits (5 spent today)');
    expect(await chargedToday(user.id)).toBe(500);

    const audits = await t.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetUserId, user.id))
      .orderBy(adminAuditLog.createdAt);
    expect(audits.map((a) => [a.action, (a.before as { dailySpendCap: number | null }).dailySpendCap])).toEqual([
      ['user.update', null],
      ['user.update', 4],
      ['user.update', 0],
    ]);
    expect((audits[0]?.after as { dailySpendCap: number | null }).dailySpendCap).toBe(4);
    const listed = await injectJson(t.app, 'GET', `/api/admin/users?q=${encodeURIComponent(user.email)}`, {
      cookie: adminCookie,
    });
    expect(listed.json<AdminUser[]>()[0]?.dailySpendCap).toBeNull();
  });

  it('refuses a cap that is negative or has more than two decimals, and changes nothing', async () => {
    const { user } = await signedInUser();
    for (const cap of [-1, 1.005]) {
      const answer = await setCap(user, cap);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toContain('dailySpendCap');
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.dailySpendCapHundredths).toBeNull();
  });

  it('does not count charges given back', async () => {
    const { cookie } = await signedInUser();
    const first = (await generate(cookie)).json<GenerationRecord>();
    expect((await generate(cookie)).statusCode).toBe(201);
    expect((await generate(cookie)).statusCode).toBe(429);
    await t.db
      .update(generations)
      .set({ status: 'failed', completedAt: new Date(), errorMessage: 'The provider timed out.' })
      .where(eq(generations.id, first.id));
    const refund = await injectJson(t.app, 'POST', `/api/admin/jobs/${first.id}/refund`, { cookie: adminCookie });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await generate(cookie)).statusCode).toBe(201);
    expect((await generate(cookie)).statusCode).toBe(429);
  });

  it('stops variations that would pass it as a whole: none of them is made or charged', async () => {
    const { user, cookie } = await signedInUser();
    const batch = await generate(cookie, { variations: 3 });
    expect(batch.statusCode).toBe(429);
    expect(batch.json().code).toBe('daily_spend_cap');
    expect(await jobsOf(user.id)).toHaveLength(0);
    expect(await chargedToday(user.id)).toBe(0);
    expect((await generate(cookie, { variations: 2 })).statusCode).toBe(201);
    expect(await chargedToday(user.id)).toBe(200);
  });

  it('stops Extend at the cap too, leaving nothing behind, and lets it through below the cap', async () => {
    const { user, cookie } = await signedInUser();
    const { video } = await makeMediaFixtures();
    const outputKey = `outputs/${user.id}/finished-${Date.now()}.mp4`;
    await t.ctx.storage.put(outputKey, Readable.from([video]), 'video/mp4');
    const [finished] = await t.db
      .insert(generations)
      .values({
        userId: user.id,
        prompt: 'A finished lantern',
        model: 'local',
        requestedDuration: 2,
        hasAudio: false,
        status: 'completed',
        outputKey,
        completedAt: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    if (!finished) throw new Error('no row');
    const extend = () =>
      injectJson(t.app, 'POST', `/api/video-generation/${finished.id}/extend`, { cookie, body: { duration: 2 } });
    expect((await generate(cookie)).statusCode).toBe(201);
    const first = await extend();
    expect(first.statusCode, first.body).toBe(201);
    const refused = await extend();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'daily_spend_cap' });
    expect(refused.json().message).toContain(resetSentence());
    expect(await jobsOf(user.id)).toHaveLength(3);
    expect(await chargedToday(user.id)).toBe(200);
  });

  it('does not stop generations that spend no credits (unlimited accounts)', async () => {
    const { user, cookie } = await signedInUser({ subscriptionStatus: 'premium_unlimited', creditsHundredths: 0 });
    for (let i = 0; i < 3; i += 1) expect((await generate(cookie)).statusCode).toBe(201);
    expect(await jobsOf(user.id)).toHaveLength(3);
  });
});
