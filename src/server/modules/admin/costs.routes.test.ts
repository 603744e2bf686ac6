import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signedInAdmin, signIn } from '../../../../tests/support/factories';
import type { AdminCosts } from '../../../shared/admin-costs';
import type { GenerationRecord } from '../../../shared/generations';
import { generations, users } from '../../db/schema';
import { applyCreditChange } from '../money/ledger.service';

// The cost view: MODELS_CONFIG's provider costs, recorded on each job as it is made, read back per UTC
// day and model against what the jobs were paid with. No worker runs: a job's end is written as the
// worker would write it, and a failed job is refunded through the jobs console's action.

let dir: string;
let t: TestApp;
let adminCookie: string;

const CONFIG = {
  models: {
    local: { credits: 0.5, per: 'second', providerCost: { usd: 0.05, per: 'second' } },
    'fal-veo3': { credits: 4, providerCost: { usd: 3.2 } },
    // No provider cost: its completed videos are counted as such.
    'fal-wan-2.2': { credits: 1 },
  },
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'costs-'));
  const file = path.join(dir, 'models.json');
  writeFileSync(file, JSON.stringify(CONFIG));
  t = await createTestApp({ MODELS_CONFIG: file, FAL_KEY: 'k', DAILY_SPEND_CAP_CREDITS: '25' });
  ({ cookie: adminCookie } = await signedInAdmin(t.app, t.db, 'op'));
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, overrides);
  return { user, cookie: await signIn(t.app, user) };
}
async function generate(cookie: string, body: object): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/video-generation', { cookie, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<GenerationRecord>().id;
}
const finish = (ids: string[], status: 'completed' | 'failed') =>
  t.db
    .update(generations)
    .set({ status, completedAt: new Date(), errorMessage: status === 'failed' ? 'The provider timed out.' : null })
    .where(inArray(generations.id, ids));
const costs = async (query = '') => {
  const response = await injectJson(t.app, 'GET', `/api/admin/costs${query}`, { cookie: adminCookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminCosts>();
};

describe('GET /api/admin/costs', () => {
  it('answers 401 signed out, 403 to a non-admin, and 400 for days outside 1..90', async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 100 });
    expect((await injectJson(t.app, 'GET', '/api/admin/costs')).statusCode).toBe(401);
    const denied = await injectJson(t.app, 'GET', '/api/admin/costs', { cookie });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'not_admin' });
    for (const days of ['0', '91', '2.5', 'ten']) {
      const bad = await injectJson(t.app, 'GET', `/api/admin/costs?days=${days}`, { cookie: adminCookie });
      expect(bad.statusCode, days).toBe(400);
    }
  });

  it('reports per day and model the videos, credits charged, provider cost recorded at creation and the margin', async () => {
    const payer = await signedInUser({ creditsHundredths: 10_000 });
    const second = await signedInUser({ creditsHundredths: 10_000 });
    const subscriber = await signedInUser({ subscriptionStatus: 'active' });
    const unlimited = await signedInUser({ subscriptionStatus: 'premium_unlimited' });

    // local: 4 s at 0.5 credits and $0.05 a second = 2 credits, $0.20.
    const paidLocal = await generate(payer.cookie, { prompt: 'A paid lantern', model: 'local', duration: 4 });
    const dailyLocal = await generate(subscriber.cookie, { prompt: 'A daily lantern', model: 'local', duration: 4 });
    const freeLocal = await generate(unlimited.cookie, { prompt: 'A free lantern', model: 'local', duration: 4 });
    // fal-veo3: 4 credits and $3.20 a video; one completes, one fails and is refunded.
    const veo = await generate(payer.cookie, { prompt: 'A paid kite', model: 'fal-veo3', duration: 8 });
    const veoFailed = await generate(second.cookie, { prompt: 'A failed kite', model: 'fal-veo3', duration: 8 });
    // fal-wan-2.2: 1 credit, no provider cost configured.
    const wan = await generate(second.cookie, { prompt: 'A plain kite', model: 'fal-wan-2.2' });

    const [recorded] = await t.db.select().from(generations).where(eq(generations.id, veo));
    expect(recorded?.providerCostMicroUsd).toBe(3_200_000);
    const [perSecond] = await t.db.select().from(generations).where(eq(generations.id, paidLocal));
    expect(perSecond?.providerCostMicroUsd).toBe(200_000);
    const [none] = await t.db.select().from(generations).where(eq(generations.id, wan));
    expect(none?.providerCostMicroUsd).toBeNull();

    await finish([paidLocal, dailyLocal, freeLocal, veo, wan], 'completed');
    await finish([veoFailed], 'failed');
    const refund = await injectJson(t.app, 'POST', `/api/admin/jobs/${veoFailed}/refund`, { cookie: adminCookie });
    expect(refund.statusCode, refund.body).toBe(200);

    const report = await costs();
    const today = new Date().toISOString().slice(0, 10);
    expect(report).toMatchObject({ days: 14, to: today, defaultDailySpendCap: 25 });
    expect(report.valuation).toEqual({ creditUsd: 1, dailyGenerationUsd: 0.133333, packGenerationUsd: 0.285714 });
    const row = (model: string) => report.rows.find((r) => r.day === today && r.model === model);
    expect(row('local')).toMatchObject({
      modelName: 'Local preview engine',
      videos: 3,
      completed: 3,
      paidWithCredits: 1,
      paidWithDaily: 1,
      paidWithPack: 0,
      free: 1,
      creditsCharged: 2,
      revenueUsd: 2.133333,
      providerCostUsd: 0.6,
      completedWithoutCost: 0,
      marginUsd: 1.533333,
    });
    expect(row('fal-veo3')).toMatchObject({
      modelName: 'Veo 3 (fal.ai)',
      videos: 2,
      completed: 1,
      paidWithCredits: 2,
      creditsCharged: 4,
      revenueUsd: 4,
      providerCostUsd: 3.2,
      marginUsd: 0.8,
    });
    expect(row('fal-wan-2.2')).toMatchObject({
      videos: 1,
      completed: 1,
      creditsCharged: 1,
      providerCostUsd: 0,
      completedWithoutCost: 1,
      marginUsd: 1,
    });
    expect(report.dayTotals[0]).toMatchObject({
      day: today,
      videos: 6,
      completed: 5,
      creditsCharged: 7,
      revenueUsd: 7.133333,
      providerCostUsd: 3.8,
      marginUsd: 3.333333,
    });
    expect(report.totals).toMatchObject({ videos: 6, creditsCharged: 7, providerCostUsd: 3.8 });
  });

  it('keeps the cost a job was made with, and leaves out days before the period', async () => {
    const { user } = await signedInUser();
    const old = new Date(Date.now() - 3 * 86_400_000);
    await t.db.insert(generations).values({
      userId: user.id,
      prompt: 'Made three days ago, when the provider was dearer',
      model: 'fal-veo3',
      requestedDuration: 8,
      hasAudio: false,
      status: 'completed',
      creditsUsedHundredths: 400,
      providerCostMicroUsd: 5_000_000,
      createdAt: old,
      queueKey: old,
    });
    const day = old.toISOString().slice(0, 10);
    const wide = await costs('?days=7');
    expect(wide.rows.find((r) => r.day === day && r.model === 'fal-veo3')).toMatchObject({
      providerCostUsd: 5,
      creditsCharged: 4,
      marginUsd: -1,
    });
    const narrow = await costs('?days=2');
    expect(narrow.rows.some((r) => r.day === day)).toBe(false);
    expect(narrow.from).toBe(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  });

  it('counts given credits (the sign-up credit, grants) as bringing no revenue: a charge spends them first', async () => {
    const wanToday = (report: AdminCosts) =>
      report.rows.find((r) => r.day === new Date().toISOString().slice(0, 10) && r.model === 'fal-wan-2.2');
    const before = wanToday(await costs()) ?? { creditsCharged: 0, creditsGiven: 0, revenueUsd: 0 };
    // A newcomer: the sign-up credit (a grant, given), then 1 credit bought.
    const { user, cookie } = await signedInUser();
    const userId = user.id;
    for (const [kind, reference] of [
      ['grant', null],
      ['purchase', 'cs_test_given_credits'],
    ] as const) {
      await t.db.transaction((tx) =>
        applyCreditChange(tx, { userId, deltaHundredths: 100, kind, actor: 'system', reference }),
      );
    }
    const givenOf = async () =>
      (await t.db.select().from(users).where(eq(users.id, userId)))[0]?.givenCreditsHundredths;
    expect(await givenOf()).toBe(100);

    // 1 credit each: the first spends the given credit, the second the bought one.
    const first = await generate(cookie, { prompt: 'A given kite', model: 'fal-wan-2.2' });
    expect(await givenOf()).toBe(0);
    await generate(cookie, { prompt: 'A bought kite', model: 'fal-wan-2.2' });
    let after = wanToday(await costs());
    expect(after?.creditsCharged).toBeCloseTo(before.creditsCharged + 2, 6);
    expect(after?.creditsGiven).toBeCloseTo(before.creditsGiven + 1, 6);
    expect(after?.revenueUsd).toBeCloseTo(before.revenueUsd + 1, 6);

    // A refund gives the given credit back as given: spent again, it still brings nothing.
    await finish([first], 'failed');
    const refund = await injectJson(t.app, 'POST', `/api/admin/jobs/${first}/refund`, { cookie: adminCookie });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await givenOf()).toBe(100);
    await generate(cookie, { prompt: 'A given kite again', model: 'fal-wan-2.2' });
    after = wanToday(await costs());
    expect(after?.creditsGiven).toBeCloseTo(before.creditsGiven + 1, 6);
    expect(after?.revenueUsd).toBeCloseTo(before.revenueUsd + 1, 6);
  });
});
