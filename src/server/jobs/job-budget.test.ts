import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { makeCutMp4 } from '../../../tests/support/media';
import type { GenerationRecord } from '../../shared/generations';
import { readEnv } from '../config';
import { generations, uploads } from '../db/schema';
import { runningMediaProcesses } from '../media/processes';
import { budgetExceededMessage, budgetInWords, jobBudgetMs } from './job-budget';
import { startWorker, type Worker } from './worker';

let t: TestApp;
let worker: Worker | null = null;
const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-job-budget-test-'));

beforeAll(async () => {
  t = await createTestApp({ PATH: readEnv().PATH ?? '' });
});
afterAll(async () => {
  await worker?.stop(1000);
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stores a video as an accepted upload without the upload check (one accepted before the check existed). */
async function storeUnchecked(userId: string, bytes: Buffer): Promise<string> {
  const [row] = await t.db
    .insert(uploads)
    .values({
      userId,
      objectKey: `uploads/${userId}/pending`,
      status: 'completed',
      kind: 'video',
      contentType: 'video/mp4',
      sizeBytes: bytes.length,
      createdAt: new Date(),
      completedAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
    })
    .returning();
  if (!row) throw new Error('no upload row');
  const objectKey = `uploads/${userId}/${row.id}`;
  await t.db.update(uploads).set({ objectKey }).where(eq(uploads.id, row.id));
  await t.ctx.storage.put(objectKey, Readable.from([bytes]), 'video/mp4');
  return `/objects/${objectKey}`;
}

async function waitFor(cookie: string, id: string, timeoutMs = 60_000): Promise<GenerationRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie }))
      .json<GenerationRecord[]>()
      .find((r) => r.id === id);
    if (record && (record.status === 'completed' || record.status === 'failed')) return record;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the job time budget', () => {
  it('is the worker budget for local renders, plus the provider timeout for provider jobs', () => {
    const providers = { pollIntervalMs: 10_000, timeoutMs: 900_000, retryBaseDelayMs: 1000 };
    expect(jobBudgetMs({ jobTimeoutSeconds: 600 }, providers, 'local')).toBe(600_000);
    expect(jobBudgetMs({ jobTimeoutSeconds: 600 }, providers, 'veo3')).toBe(1_500_000);
    expect(budgetInWords(600_000)).toBe('10 minutes');
    expect(budgetInWords(90_000)).toBe('90 seconds');
    expect(budgetInWords(1000)).toBe('1 second');
  });

  it('fails a render stuck on a broken video within its budget, once, while the only worker goes on to the next user', async () => {
    const stuckUser = await createUser(t.db, { subscriptionStatus: 'premium_unlimited' });
    const stuckCookie = await signIn(t.app, stuckUser);
    const videoFile = await storeUnchecked(stuckUser.id, await makeCutMp4());
    const stuck = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: stuckCookie,
      body: { prompt: 'My holiday clip in black and white', videoFile, duration: 5, model: 'local' },
    });
    expect(stuck.statusCode).toBe(201);
    const otherCookie = await signIn(t.app, await createUser(t.db, { subscriptionStatus: 'premium_unlimited' }));
    const other = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: otherCookie,
      body: { prompt: 'A calm blue sea', duration: 2, model: 'local' },
    });
    expect(other.statusCode).toBe(201);

    const started = Date.now();
    const config = {
      concurrency: 1,
      leaseSeconds: 5,
      pollMs: 50,
      retryDelaySeconds: 0,
      shutdownGraceSeconds: 1,
      jobTimeoutSeconds: 8,
    };
    worker = startWorker(t.ctx, { config, log: t.app.log });
    // Once the stuck render's FFmpeg runs, its 8 s budget is fixed; the next job (read at its own start)
    // gets a budget no loaded machine can exhaust on a 2 s render, so only the worker's freedom is tested.
    await vi.waitFor(() => expect(runningMediaProcesses()).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    config.jobTimeoutSeconds = 300;
    const failed = await waitFor(stuckCookie, stuck.json<GenerationRecord>().id);
    const failedAfter = Date.now() - started;
    expect(failed).toMatchObject({ status: 'failed', errorMessage: budgetExceededMessage(8000) });
    expect(failed.errorMessage).toMatch(/^Making this video took longer than 8 seconds, so it was stopped\./);
    expect(failedAfter).toBeGreaterThanOrEqual(8000);
    // Stopped, not left to run: the looping FFmpeg would never end on its own.
    expect(failedAfter).toBeLessThan(40_000);
    // Not retried: the same input would take the next attempt as long.
    const [row] = await t.db.select().from(generations).where(eq(generations.id, failed.id));
    expect(row?.attempts).toBe(1);

    const done = await waitFor(otherCookie, other.json<GenerationRecord>().id);
    expect(done.status).toBe('completed');
    // The worker lets go of a job just after its record is written.
    await vi.waitFor(() => expect(worker?.busy()).toEqual([]), { timeout: 5000 });
    expect(runningMediaProcesses()).toBe(0);
  }, 120_000);
});
