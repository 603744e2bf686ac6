import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import { makeMediaFixtures } from '../../../tests/support/media';
import {
  FAST_PROVIDER_ENV,
  followJob,
  rowOf,
  startGeneration,
  startTestWorker,
  waitUntil,
} from '../../../tests/support/pipeline';
import { allowanceLedger, creditLedger, dailyGenerationUsage, generations, users } from '../db/schema';
import { failExhaustedJobs } from '../modules/generations/lifecycle.service';
import * as queue from './queue.repository';
import type { Worker } from './worker';

// REFUND_FAILED_GENERATIONS (issue 31): a failure that is not the user's gives its charge back exactly
// once, to whatever paid it; a content refusal never does; off (the default), nothing comes back.
// fal.ai is the local stand-in of tests/support/fake-fal.ts (its public queue API's wire format).

const EXHAUSTED = 'The video could not be finished after 3 attempts. Please try again.';
const FAL_ERROR = 'fal.ai could not make this video. The model ran out of memory on this input.';

let fal: FakeFal;
beforeAll(async () => {
  fal = await startFakeFal((await makeMediaFixtures()).video);
}, 120_000);
afterAll(async () => {
  await fal.close();
});
beforeEach(() => {
  fal.outcome = 'video';
  fal.rateLimitNext = 0;
});

function appWith(refund: 'true' | 'false') {
  return createTestApp({
    ...FAST_PROVIDER_ENV,
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.baseUrl,
    PUBLIC_URL: 'https://reelsmith.example',
    REFUND_FAILED_GENERATIONS: refund,
  });
}

function workerOn(t: TestApp): Worker {
  return startTestWorker(t, { concurrency: 2, leaseSeconds: 3 });
}

/** A worker that claims the job and then vanishes; answers once its lease has expired (the database's clock). */
async function crashedClaim(t: TestApp, id: string, ghost: string) {
  expect((await queue.claimNext(t.db, ghost, 1))?.id).toBe(id);
  await waitUntil(async () => {
    const [row] = await t.db
      .select({ expired: sql<boolean>`${generations.leaseExpiresAt} < now()` })
      .from(generations)
      .where(eq(generations.id, id));
    return row?.expired === true;
  });
}

async function creditsOf(t: TestApp, userId: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, userId));
  return row?.creditsHundredths;
}

const refundRows = (t: TestApp, userId: string) =>
  t.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.kind, 'refund')));

describe('REFUND_FAILED_GENERATIONS=true', () => {
  let t: TestApp;
  let worker: Worker | null = null;
  beforeAll(async () => {
    t = await appWith('true');
  }, 120_000);
  afterAll(async () => {
    await worker?.stop(1000);
    await t.close();
  });
  const stopWorker = async () => {
    await worker?.stop(1000);
    worker = null;
  };

  it('gives a provider failure’s credits back once, after a crashed worker and a re-claim, and says so', async () => {
    await stopWorker();
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    fal.outcome = 'error';
    const record = await startGeneration(t, cookie, { model: 'fal-wan-2.2' });
    const charged = (await rowOf(t, record.id))?.creditsUsedHundredths ?? 0;
    expect(charged).toBeGreaterThan(0);
    await crashedClaim(t, record.id, 'ghost-1');
    worker = workerOn(t);
    const { row } = await followJob(t, record.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row?.errorMessage).toBe(
      `${FAL_ERROR} Your ${charged / 100} credit${charged === 100 ? ' was' : 's were'} refunded.`,
    );
    expect(row?.refundedAt).not.toBeNull();
    expect(await creditsOf(t, user.id)).toBe(1000);
    const refunds = await refundRows(t, user.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ deltaHundredths: charged, reference: `refund:generation:${record.id}` });
    // The exhausted-jobs sweep that every worker runs finds nothing more to give back.
    await failExhaustedJobs(t.ctx, EXHAUSTED);
    expect(await refundRows(t, user.id)).toHaveLength(1);
  });

  it('gives back once a job retried after temporary failures until its last attempt', async () => {
    worker ??= workerOn(t);
    const user = await createUser(t.db, { creditsHundredths: 500 });
    const cookie = await signIn(t.app, user);
    fal.rateLimitNext = 10_000;
    const record = await startGeneration(t, cookie, { model: 'fal-wan-2.2' });
    const { row } = await followJob(t, record.id, 60_000);
    fal.rateLimitNext = 0;
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row?.errorMessage).toMatch(/refunded\.$/);
    expect(await creditsOf(t, user.id)).toBe(500);
    expect(await refundRows(t, user.id)).toHaveLength(1);
  }, 90_000);

  it('gives back the last attempt of a job whose three workers crashed, once though two workers fail it at once', async () => {
    await stopWorker();
    const user = await createUser(t.db, { creditsHundredths: 300 });
    const cookie = await signIn(t.app, user);
    const record = await startGeneration(t, cookie, { prompt: 'An unlucky job', duration: 3 });
    for (const ghost of ['ghost-a', 'ghost-b', 'ghost-c']) await crashedClaim(t, record.id, ghost);
    await Promise.all([failExhaustedJobs(t.ctx, EXHAUSTED), failExhaustedJobs(t.ctx, EXHAUSTED)]);
    const row = await rowOf(t, record.id);
    expect(row).toMatchObject({ status: 'failed', errorMessage: `${EXHAUSTED} Your 1 credit was refunded.` });
    expect(await creditsOf(t, user.id)).toBe(300);
    expect(await refundRows(t, user.id)).toHaveLength(1);
  });

  it('gives a subscriber’s daily generation back, as an allowance ledger row', async () => {
    worker ??= workerOn(t);
    const user = await createUser(t.db, { subscriptionStatus: 'active', creditsHundredths: 0 });
    const cookie = await signIn(t.app, user);
    fal.outcome = 'error';
    const record = await startGeneration(t, cookie, { model: 'fal-wan-2.2' });
    expect((await rowOf(t, record.id))?.paidWith).toBe('daily');
    const { row } = await followJob(t, record.id);
    expect(row?.errorMessage).toBe(`${FAL_ERROR} The daily generation it used was given back.`);
    const [usage] = await t.db.select().from(dailyGenerationUsage).where(eq(dailyGenerationUsage.userId, user.id));
    expect(usage?.used).toBe(0);
    const changes = await t.db.select().from(allowanceLedger).where(eq(allowanceLedger.userId, user.id));
    expect(changes.map((c) => [c.kind, c.delta])).toEqual(
      expect.arrayContaining([
        ['daily_use', -1],
        ['daily_use_refund', 1],
      ]),
    );
    expect(changes).toHaveLength(2);
  });

  it('never gives back a content-policy refusal', async () => {
    worker ??= workerOn(t);
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    fal.outcome = 'policy';
    const record = await startGeneration(t, cookie, { model: 'fal-wan-2.2' });
    const { row } = await followJob(t, record.id);
    expect(row?.status).toBe('failed');
    expect(row?.errorMessage).not.toContain('refunded');
    expect(row?.refundedAt).toBeNull();
    expect(await creditsOf(t, user.id)).toBe(1000 - (row?.creditsUsedHundredths ?? 0));
    expect(await refundRows(t, user.id)).toHaveLength(0);
  });
});

describe('REFUND_FAILED_GENERATIONS unset (the product’s rule: no refund)', () => {
  let t: TestApp;
  let worker: Worker;
  beforeAll(async () => {
    t = await appWith('false');
    worker = workerOn(t);
  }, 120_000);
  afterAll(async () => {
    await worker.stop(1000);
    await t.close();
  });

  it('gives nothing back for a provider failure', async () => {
    expect(t.config.operations.refundFailedGenerations).toBe(false);
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    fal.outcome = 'error';
    const record = await startGeneration(t, cookie, { model: 'fal-wan-2.2' });
    const { row } = await followJob(t, record.id);
    expect(row).toMatchObject({ status: 'failed', errorMessage: FAL_ERROR, refundedAt: null });
    expect(await creditsOf(t, user.id)).toBe(1000 - (row?.creditsUsedHundredths ?? 0));
    expect(await refundRows(t, user.id)).toHaveLength(0);
  });
});

describe('REFUND_FAILED_GENERATIONS=true, and an FFmpeg that fails every render', () => {
  let t: TestApp;
  let worker: Worker;
  const folder = mkdtempSync(path.join(tmpdir(), 'reelsmith-broken-ffmpeg-'));
  beforeAll(async () => {
    const broken = path.join(folder, 'ffmpeg');
    writeFileSync(broken, '#!/bin/sh\necho "Conversion failed!" >&2\nexit 1\n', { mode: 0o755 });
    t = await createTestApp({ ...FAST_PROVIDER_ENV, REFUND_FAILED_GENERATIONS: 'true', FFMPEG_PATH: broken });
    worker = workerOn(t);
  }, 120_000);
  afterAll(async () => {
    await worker.stop(1000);
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives a text-only video’s credits back, and does not blame uploads it never had', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    const record = await startGeneration(t, cookie, { model: 'local' });
    const { row } = await followJob(t, record.id);
    const charged = row?.creditsUsedHundredths ?? 0;
    expect(charged).toBeGreaterThan(0);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.errorMessage).toBe(
      'The local engine failed while making this video. The fault is on this server, not in your request: try again later. ' +
        `Your ${charged / 100} credit${charged === 100 ? ' was' : 's were'} refunded.`,
    );
    expect(await creditsOf(t, user.id)).toBe(1000);
    expect(await refundRows(t, user.id)).toHaveLength(1);
  });
});
