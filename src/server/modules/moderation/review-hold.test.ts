import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { signedInAdmin } from '../../../../tests/support/factories';
import { followJob, payingUser, rowOf, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import type { AdminJobAction, AdminJobsOverview } from '../../../shared/admin-jobs';
import { BLOCKED_OUTPUT_MESSAGE, HELD_FOR_REVIEW_STAGE } from '../../../shared/moderation';
import { adminAuditLog, users } from '../../db/schema';

// Flagged, not refused (issue 43): with MODERATION_SEXUAL=review a description with sexual content is
// made and charged, and held, unclaimed by any worker, until an administrator approves or rejects it.

let t: TestApp;
let stop: () => Promise<void>;
let adminCookie: string;
beforeAll(async () => {
  ({ t, stop } = await startPipeline({ MODERATION_SEXUAL: 'review' }));
  adminCookie = (await signedInAdmin(t.app, t.db, 'reviewer')).cookie;
}, 120_000);
afterAll(async () => {
  await stop();
});

const act = (id: string, action: 'approve' | 'reject') =>
  injectJson(t.app, 'POST', `/api/admin/jobs/${id}/${action}`, { cookie: adminCookie });

describe('jobs held for review', () => {
  it('waits unclaimed while later jobs are made, then is made once approved', async () => {
    const { cookie } = await payingUser(t, 1000);
    const held = await startGeneration(t, cookie, { prompt: 'A naked man on a beach', model: 'local', duration: 2 });
    expect(held.progressStage).toBe(HELD_FOR_REVIEW_STAGE);
    // A job made after it is claimed and finished while it waits.
    const later = await startGeneration(t, cookie, { prompt: 'A lighthouse at dusk', model: 'local', duration: 2 });
    expect((await followJob(t, later.id, 120_000)).row?.status).toBe('completed');
    expect(await rowOf(t, held.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      heldForReview: { findings: [{ category: 'sexual', score: 1 }] },
    });

    const overview = (
      await injectJson(t.app, 'GET', '/api/admin/jobs', { cookie: adminCookie })
    ).json<AdminJobsOverview>();
    expect(overview.held.map((job) => job.id)).toContain(held.id);
    const approved = await act(held.id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<AdminJobAction>().job.heldForReview).toBeNull();
    expect((await followJob(t, held.id, 120_000)).row?.status).toBe('completed');
    expect((await act(held.id, 'approve')).json<{ code: string }>().code).toBe('job_not_held');
  }, 240_000);

  it('fails as blocked when rejected, gives the charge back, and audits both decisions', async () => {
    const { user, cookie } = await payingUser(t, 1000);
    const held = await startGeneration(t, cookie, { prompt: 'Lingerie on a bed', model: 'local', duration: 2 });
    const rejected = await act(held.id, 'reject');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await rowOf(t, held.id)).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringContaining(BLOCKED_OUTPUT_MESSAGE),
    });
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.creditsHundredths).toBe(1000);
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audits.map((row) => row.action)).toEqual(['job_reject']);
    expect((await act(held.id, 'reject')).statusCode).toBe(409);
  }, 60_000);
});
