import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { generationDayStart } from '../../../shared/money/plans';
import {
  allowanceLedger,
  creditLedger,
  dailyGenerationUsage,
  extraGenerationPacks,
  generations,
  users,
} from '../../db/schema';
import { payForGeneration } from './charge-generation.service';
import { insertPaidGeneration, lockPayer } from '../generations/generations.repository';
import { grantPack } from './allowances.service';

let t: TestApp;
let clock = new Date('2026-01-15T15:00:00Z');
beforeAll(async () => {
  t = await createTestApp({}, undefined, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

async function subscriber(creditsHundredths: number) {
  const user = await createUser(t.db, { subscriptionStatus: 'active', creditsHundredths });
  return { user, cookie: await signIn(t.app, user) };
}

/** Generates, then marks the job finished so the 3-unfinished limit does not get in the way. */
async function generate(cookie: string) {
  const response = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A paid video' },
  });
  expect(response.statusCode).toBe(201);
  const id = response.json<{ id: string }>().id;
  await t.db.update(generations).set({ status: 'completed' }).where(eq(generations.id, id));
  const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
  return row;
}

const useDay = (userId: string, at: Date, used: number) =>
  t.db.insert(dailyGenerationUsage).values({ userId, dayStart: generationDayStart(at), used });
const creditsOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;

describe('how a generation is paid', () => {
  it('uses the daily generations first, then the pack expiring soonest, then credits', async () => {
    clock = new Date('2026-01-15T15:00:00Z');
    const { user, cookie } = await subscriber(300);
    await useDay(user.id, clock, 14);
    expect((await generate(cookie))?.paidWith).toBe('daily');
    const later = await t.db.transaction((tx) =>
      grantPack(tx, { userId: user.id, pack: 'small', purchasedAt: clock, paymentReference: `p-${user.id}-1` }),
    );
    const sooner = await t.db.transaction((tx) =>
      grantPack(tx, {
        userId: user.id,
        pack: 'small',
        purchasedAt: new Date(clock.getTime() - 20 * 86_400_000),
        paymentReference: `p-${user.id}-2`,
      }),
    );
    expect((await generate(cookie))?.paidWith).toBe('pack');
    const packs = await t.db.select().from(extraGenerationPacks).where(eq(extraGenerationPacks.userId, user.id));
    expect(packs.find((p) => p.id === sooner?.id)?.used).toBe(1);
    expect(packs.find((p) => p.id === later?.id)?.used).toBe(0);
    expect(await creditsOf(user.id)).toBe(300);

    const status = await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie });
    expect(status.json()).toEqual({
      dailyUsed: 15,
      dailyLimit: 15,
      extraRemaining: 59,
      subscriptionStatus: 'active',
      canGenerate: true,
    });
    const ledger = await t.db.select().from(allowanceLedger).where(eq(allowanceLedger.userId, user.id));
    expect(ledger.map((r) => r.kind).sort()).toEqual(['daily_use', 'pack_purchase', 'pack_purchase', 'pack_use']);

    // Without daily generations or packs, credits pay.
    await t.db.update(extraGenerationPacks).set({ used: 30 }).where(eq(extraGenerationPacks.userId, user.id));
    expect((await generate(cookie))?.paidWith).toBe('credits');
    expect(await creditsOf(user.id)).toBe(200);
  });

  it('resets the daily generations at 3am New York time, on both sides of the daylight-saving changes', async () => {
    for (const [before, after] of [
      ['2026-03-08T06:59:00Z', '2026-03-08T07:00:00Z'], // spring forward: 3am EDT is 07:00Z
      ['2026-11-01T07:59:00Z', '2026-11-01T08:00:00Z'], // fall back: 3am EST is 08:00Z
    ] as const) {
      clock = new Date(before);
      const { user, cookie } = await subscriber(100);
      await useDay(user.id, clock, 15);
      expect((await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie })).json().dailyUsed).toBe(15);
      clock = new Date(after);
      expect((await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie })).json().dailyUsed).toBe(0);
      expect((await generate(cookie))?.paidWith).toBe('daily');
      clock = new Date(before);
      expect((await generate(cookie))?.paidWith).toBe('credits');
    }
  });

  it('stops using an extra pack 30 days after its purchase', async () => {
    clock = new Date('2026-05-01T12:00:00Z');
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    await t.db.transaction((tx) =>
      grantPack(tx, { userId: user.id, pack: 'medium', purchasedAt: clock, paymentReference: `p-${user.id}` }),
    );
    clock = new Date('2026-05-31T11:59:00Z');
    expect((await generate(cookie))?.paidWith).toBe('pack');
    clock = new Date('2026-05-31T12:00:00Z');
    expect((await injectJson(t.app, 'GET', '/api/user/generation-status', { cookie })).json().extraRemaining).toBe(0);
    expect((await generate(cookie))?.paidWith).toBe('credits');
  });

  it('never overdraws any of the three under 30 concurrent payments', async () => {
    clock = new Date('2026-06-10T15:00:00Z');
    const user = await createUser(t.db, { subscriptionStatus: 'active', creditsHundredths: 500 });
    await useDay(user.id, clock, 12);
    await t.db.transaction((tx) =>
      grantPack(tx, { userId: user.id, pack: 'small', purchasedAt: clock, paymentReference: `p-${user.id}` }),
    );
    await t.db.update(extraGenerationPacks).set({ used: 26 }).where(eq(extraGenerationPacks.userId, user.id));
    // The same transaction as POST /api/video-generation (lock, pay, the insert that takes the
    // credits), without its 3-unfinished-jobs rule.
    const pay = () =>
      t.db.transaction(async (tx) => {
        const payer = await lockPayer(tx, user.id);
        if (!payer) throw new Error('no user');
        const id = randomUUID();
        const paid = await payForGeneration(
          tx,
          payer,
          { userId: user.id, generationId: id, now: clock },
          { hundredths: 100 },
        );
        await insertPaidGeneration(
          tx,
          {
            id,
            userId: user.id,
            prompt: 'race',
            model: 'local',
            requestedDuration: 10,
            hasAudio: false,
            isEconomy: false,
            settings: {},
            inputs: {},
            endImage: null,
            referenceImages: [],
            progressStage: 'Waiting in queue',
            creditsUsedHundredths: paid.creditsHundredths,
            providerCostMicroUsd: null,
            paidWith: paid.paidWith,
            parentId: null,
            groupId: null,
            extension: null,
            consent: null,
            heldForReview: null,
          },
          { charge: paid.charge, eventKind: paid.balanceChanged ? 'balance' : 'generation' },
        );
        return paid;
      });
    const results = await Promise.allSettled(Array.from({ length: 30 }, pay));
    const paid = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.paidWith] : []));
    expect(paid.filter((p) => p === 'daily')).toHaveLength(3);
    expect(paid.filter((p) => p === 'pack')).toHaveLength(4);
    expect(paid.filter((p) => p === 'credits')).toHaveLength(5);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(18);
    expect(await creditsOf(user.id)).toBe(0);
    expect(
      (await t.db.select().from(dailyGenerationUsage).where(eq(dailyGenerationUsage.userId, user.id)))[0]?.used,
    ).toBe(15);
    expect(
      (await t.db.select().from(extraGenerationPacks).where(eq(extraGenerationPacks.userId, user.id)))[0]?.used,
    ).toBe(30);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(5);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(12);
  });
});
