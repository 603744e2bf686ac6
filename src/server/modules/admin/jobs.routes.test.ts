import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uniqueEmail } from '../../../../tests/support/factories';
import { rowOf, startGeneration, startTestWorker, waitUntil } from '../../../../tests/support/pipeline';
import type { AdminJobAction, AdminJobsOverview } from '../../../shared/admin-jobs';
import { adminAuditLog, creditLedger, generations, users } from '../../db/schema';
import * as queue from '../../jobs/queue.repository';
import { CANCELLED_MESSAGE } from './jobs.service';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.db, { isAdmin: true, subscriptionStatus: 'premium_unlimited', email: uniqueEmail('op') });
  adminCookie = await signIn(t.app, admin);
}, 120_000);
afterAll(async () => {
  await t.close();
});

/** A job row as the queue would hold it; the console only reads what the pipeline writes. */
async function insertJob(userId: string, overrides: Partial<typeof generations.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(generations)
    .values({
      userId,
      prompt: 'A lighthouse at dusk',
      model: 'local',
      requestedDuration: 4,
      hasAudio: false,
      // Its turn in the fair queue is when it was made, as for a user's first job.
      ...(overrides.createdAt ? { queueKey: overrides.createdAt } : {}),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('no row');
  return row;
}

const overview = async (query = '') => {
  const response = await injectJson(t.app, 'GET', `/api/admin/jobs${query}`, { cookie: adminCookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminJobsOverview>();
};
const act = (id: string, action: 'cancel' | 'rerun' | 'refund', cookie = adminCookie) =>
  injectJson(t.app, 'POST', `/api/admin/jobs/${id}/${action}`, { cookie });
const auditOf = (action: string, generationId: string) =>
  t.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.action, action)))
    .then((rows) =>
      rows.filter((row) => (row.after as { generationId?: string } | null)?.generationId === generationId),
    );

describe('access', () => {
  it('answers 401 signed out and 403 to a signed-in non-admin, and changes nothing', async () => {
    const user = await createUser(t.db, { creditsHundredths: 0 });
    const cookie = await signIn(t.app, user);
    const job = await insertJob(user.id, { status: 'failed', creditsUsedHundredths: 100, errorMessage: 'Boom.' });
    for (const [method, url] of [
      ['GET', '/api/admin/jobs'],
      ['POST', `/api/admin/jobs/${job.id}/cancel`],
      ['POST', `/api/admin/jobs/${job.id}/rerun`],
      ['POST', `/api/admin/jobs/${job.id}/refund`],
    ] as const) {
      expect((await injectJson(t.app, method, url)).statusCode).toBe(401);
      const denied = await injectJson(t.app, method, url, { cookie });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ code: 'not_admin' });
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(0);
    expect((await rowOf(t, job.id))?.refundedAt).toBeNull();
  });
});

describe('GET /api/admin/jobs', () => {
  it('shows the queue, running jobs with worker and attempt, the day’s failures by model and reason, and filters', async () => {
    await t.db.delete(generations);
    const alice = await createUser(t.db, { email: uniqueEmail('alice') });
    const bob = await createUser(t.db, { email: uniqueEmail('bob') });
    const waiting = await insertJob(alice.id, { createdAt: new Date(Date.now() - 5000) });
    const running = await insertJob(bob.id, { model: 'fal-wan-2.2', createdAt: new Date(Date.now() - 10_000) });
    expect((await queue.claimNext(t.db, 'worker-7', 60))?.id).toBe(running.id);
    for (const user of [alice, bob])
      await insertJob(user.id, { status: 'failed', errorMessage: 'fal.ai is busy right now. Please try again later.' });
    await insertJob(alice.id, {
      status: 'failed',
      errorMessage: 'fal.ai is busy right now. Please try again later. Your 1 credit was refunded.',
    });
    await insertJob(alice.id, { status: 'failed', errorMessage: 'Veo blocked this video: unsafe.', model: 'veo3' });
    await insertJob(alice.id, {
      status: 'failed',
      errorMessage: 'Long ago.',
      createdAt: new Date(Date.now() - 25 * 3600 * 1000),
    });

    const all = await overview();
    expect(all.queue).toMatchObject({ pending: 1, processing: 1 });
    expect(all.queue.oldestWaitSeconds).toBeGreaterThanOrEqual(4);
    expect(all.running).toEqual([
      expect.objectContaining({ id: running.id, worker: 'worker-7', attempts: 1, userEmail: bob.email }),
    ]);
    expect(all.failures).toEqual([
      expect.objectContaining({
        model: 'local',
        reason: 'fal.ai is busy right now. Please try again later.',
        count: 3,
      }),
      expect.objectContaining({ model: 'veo3', reason: 'Veo blocked this video: unsafe.', count: 1 }),
    ]);
    expect(all.models).toContain('local');

    const ofAlice = await overview(`?user=${encodeURIComponent(alice.email.slice(0, 8))}`);
    expect(new Set(ofAlice.jobs.map((job) => job.userEmail))).toEqual(new Set([alice.email]));
    expect(ofAlice.jobs).toHaveLength(5);
    const pending = await overview('?status=pending');
    expect(pending.jobs.map((job) => job.id)).toEqual([waiting.id]);
    const onFal = await overview('?model=fal-wan-2.2&status=processing');
    expect(onFal.jobs.map((job) => job.id)).toEqual([running.id]);
    expect((await overview('?user=%25')).jobs).toHaveLength(0);
    const refused = await injectJson(t.app, 'GET', '/api/admin/jobs?status=lost', { cookie: adminCookie });
    expect(refused.statusCode).toBe(400);
    await t.db.delete(generations);
  });
});

describe('cancel', () => {
  it('stops a running job’s engine within seconds, fails it with a sentence and writes an audit row', async () => {
    await t.db.delete(generations);
    const user = await createUser(t.db, { subscriptionStatus: 'premium_unlimited' });
    const cookie = await signIn(t.app, user);
    const worker = startTestWorker(t, { leaseSeconds: 3 });
    try {
      const record = await startGeneration(t, cookie, { prompt: 'A long red and purple dream', duration: 20 });
      await waitUntil(async () => ((await rowOf(t, record.id))?.progress ?? 0) >= 10, 60_000);
      expect(worker.busy()).toContain(record.id);
      const cancelled = await act(record.id, 'cancel');
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json<AdminJobAction>().job).toMatchObject({ status: 'failed', errorMessage: CANCELLED_MESSAGE });
      const stoppedAt = Date.now();
      await waitUntil(() => !worker.busy().includes(record.id), 5000);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(await rowOf(t, record.id)).toMatchObject({
        status: 'failed',
        outputKey: null,
        errorMessage: CANCELLED_MESSAGE,
      });
      const [audit] = await auditOf('job_cancel', record.id);
      expect(audit).toMatchObject({ actor: `admin:${admin.email}`, actorUserId: admin.id, targetUserId: user.id });
      expect(audit?.before).toMatchObject({ status: 'processing', attempts: 1 });
      expect((await act(record.id, 'cancel')).statusCode).toBe(409);
      expect(await auditOf('job_cancel', record.id)).toHaveLength(1);
    } finally {
      await worker.stop(1000);
    }
  }, 120_000);
});

describe('re-run', () => {
  it('queues a failed job again for its owner, free of charge, with an audit row; refuses a job that did not fail', async () => {
    const user = await createUser(t.db, { creditsHundredths: 0 });
    const failed = await insertJob(user.id, {
      status: 'failed',
      errorMessage: 'fal.ai is busy right now.',
      creditsUsedHundredths: 100,
      settings: { aspectRatio: '16:9' },
    });
    const response = await act(failed.id, 'rerun');
    expect(response.statusCode, response.body).toBe(200);
    const { job } = response.json<AdminJobAction>();
    expect(job).toMatchObject({ status: 'pending', userId: user.id, paidWith: 'operator', creditsCharged: 0 });
    expect(job.id).not.toBe(failed.id);
    expect(await rowOf(t, job.id)).toMatchObject({ prompt: failed.prompt, settings: { aspectRatio: '16:9' } });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(0);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
    const [audit] = await auditOf('job_rerun', failed.id);
    expect(audit?.after).toMatchObject({ newGenerationId: job.id, paidWith: 'operator' });
    expect((await act(job.id, 'rerun')).statusCode).toBe(409);
    // The console lists the failed job with its re-run, so it offers no second one.
    const listed = await injectJson(t.app, 'GET', `/api/admin/jobs?user=${encodeURIComponent(user.email)}`, {
      cookie: adminCookie,
    });
    const jobs = listed.json<AdminJobsOverview>().jobs;
    expect(jobs.find((item) => item.id === failed.id)?.rerunId).toBe(job.id);
    expect(jobs.find((item) => item.id === job.id)?.rerunId).toBeNull();
    const missing = await act('00000000-0000-4000-8000-000000000000', 'rerun');
    expect(missing.statusCode).toBe(404);
  });
});

describe('refund', () => {
  it('gives a failed job’s credits back once, with a ledger row naming the administrator and an audit row', async () => {
    const user = await createUser(t.db, { creditsHundredths: 50 });
    const failed = await insertJob(user.id, {
      status: 'failed',
      errorMessage: 'Veo could not make this video.',
      creditsUsedHundredths: 300,
      paidWith: 'credits',
    });
    const answers = await Promise.all([act(failed.id, 'refund'), act(failed.id, 'refund')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const ok = answers.find((a) => a.statusCode === 200)?.json<AdminJobAction>();
    expect(ok?.message).toBe('Refunded. Your 3 credits were refunded.');
    expect(ok?.job).toMatchObject({
      refunded: true,
      errorMessage: 'Veo could not make this video. Your 3 credits were refunded.',
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(350);
    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toEqual([
      expect.objectContaining({
        kind: 'refund',
        deltaHundredths: 300,
        actor: `admin:${admin.email}`,
        actorUserId: admin.id,
      }),
    ]);
    const audits = await auditOf('job_refund', failed.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.after).toMatchObject({ refundedWith: 'credits', credits: 3 });
    expect((await act(failed.id, 'refund')).json()).toMatchObject({ code: 'already_refunded' });
  });

  it('refuses a job that did not fail, or that cost nothing', async () => {
    const user = await createUser(t.db);
    const done = await insertJob(user.id, { status: 'completed', creditsUsedHundredths: 100 });
    expect((await act(done.id, 'refund')).json()).toMatchObject({ code: 'job_not_failed' });
    const free = await insertJob(user.id, { status: 'failed', paidWith: 'unlimited' });
    expect((await act(free.id, 'refund')).json()).toMatchObject({ code: 'nothing_to_refund' });
    expect(await auditOf('job_refund', free.id)).toHaveLength(0);
  });
});
