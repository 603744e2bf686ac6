import {
  type AdminJob,
  type AdminJobActionName,
  type AdminJobsOverview,
  type AdminJobsQuery,
  FAILURE_WINDOW_HOURS,
} from '../../../shared/admin-jobs';
import { BLOCKED_OUTPUT_MESSAGE } from '../../../shared/moderation';
import { toCredits } from '../../../shared/money/credits';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { Tx } from '../../db/client';
import { publishQueueMoved } from '../../bus/publish';
import { conflict, notFound } from '../../lib/app-error';
import { mediaUrl } from '../../storage/media-links';
import { queueSnapshot, rerunGeneration } from '../generations/generations.service';
import {
  cancelJob,
  heldStage,
  refundFailedGeneration,
  rejectHeldJob,
  releaseHeldJob,
} from '../generations/lifecycle.service';
import { hashesOfStoredMedia } from '../moderation/taken-down.service';
import { notifyVideoFinished } from '../notifications/notifications.service';
import { rememberTakenDown } from '../safety/takedown.service';
import type { Actor } from './admin.service';
import * as repo from './jobs.repository';

// The jobs console (issue 31): what the queue holds, what runs where, why jobs fail, and an
// administrator's three actions on a job, each with its audit row in the action's transaction.

const RUNNING_LIMIT = 100;
const FAILURE_GROUPS = 50;
const PROMPT_PREVIEW = 200;
export const CANCELLED_MESSAGE = 'This video was cancelled by an administrator.';

/** How long the console's links to a held finished video work. */
const REVIEW_LINK_MS = 60 * 60 * 1000;

/** What the console shows of a job's hold: where and what screening flagged, and a held video to watch. */
function presentHold(secret: string, row: repo.JobWithOwner, now: Date): AdminJob['heldForReview'] {
  const stage = heldStage(row);
  if (!stage || !row.heldForReview) return null;
  const expiresAt = new Date(now.getTime() + REVIEW_LINK_MS);
  const link = (key: string | null, contentType: string) =>
    stage === 'output' && key ? mediaUrl(secret, { key, contentType, expiresAt }) : null;
  return {
    findings: row.heldForReview.findings,
    heldAt: row.heldForReview.heldAt,
    stage: row.heldForReview.stage ?? 'description',
    video: link(row.outputKey, 'video/mp4'),
    poster: link(row.posterKey, 'image/jpeg'),
  };
}

function presentJob(ctx: ServiceContext, row: repo.JobWithOwner): AdminJob {
  return {
    id: row.id,
    userId: row.userId,
    userEmail: row.userEmail,
    model: row.model,
    status: row.status,
    prompt: row.prompt.length > PROMPT_PREVIEW ? `${row.prompt.slice(0, PROMPT_PREVIEW - 1)}…` : row.prompt,
    attempts: row.attempts,
    worker: row.status === 'processing' ? row.leaseOwner : null,
    progress: row.progress,
    stage: row.progressStage,
    errorMessage: row.errorMessage,
    paidWith: row.paidWith,
    creditsCharged: toCredits(row.creditsUsedHundredths),
    refunded: row.refundedAt !== null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    heldForReview: presentHold(ctx.secret, row, ctx.now()),
    rerunId: row.rerunId,
  };
}

/** GET /api/admin/jobs: the queue, running jobs, the last day's failures by model and reason, and the filtered jobs. */
export async function jobsOverview(ctx: ServiceContext, query: AdminJobsQuery): Promise<AdminJobsOverview> {
  const [queue, running, held, failures, jobs] = await Promise.all([
    queueSnapshot(ctx),
    repo.runningJobs(ctx.db, RUNNING_LIMIT),
    repo.heldJobs(ctx.db, RUNNING_LIMIT),
    repo.failureGroups(ctx.db, FAILURE_WINDOW_HOURS, FAILURE_GROUPS),
    repo.listJobs(ctx.db, query),
  ]);
  return {
    queue,
    running: running.map((row) => presentJob(ctx, row)),
    held: held.map((row) => presentJob(ctx, row)),
    failures: failures.map((group) => ({ ...group, lastAt: group.lastAt.toISOString() })),
    jobs: jobs.map((row) => presentJob(ctx, row)),
    models: ctx.engines.list().map((model) => model.id),
  };
}

/** The audit row of an action on a job: who, which job and whose, the job before and after. */
async function audit(
  tx: Tx,
  actor: Actor,
  action: AdminJobActionName,
  before: repo.JobWithOwner,
  after: Record<string, unknown>,
): Promise<void> {
  await repo.insertAudit(tx, {
    actor: actor.label,
    actorUserId: actor.userId,
    action: `job_${action}`,
    targetUserId: before.userId,
    targetEmail: before.userEmail,
    before: { generationId: before.id, status: before.status, attempts: before.attempts, worker: before.leaseOwner },
    after: { generationId: before.id, ...after },
  });
}

async function requireJob(tx: Tx, id: string): Promise<repo.JobWithOwner> {
  const job = await repo.lockJob(tx, id);
  if (!job) throw notFound('This job was not found. Its owner may have deleted it.', 'job_not_found');
  return job;
}

async function answer(ctx: ServiceContext, id: string, message: string) {
  const job = await repo.findJob(ctx.db, id);
  if (!job) throw notFound('This job was not found. Its owner may have deleted it.', 'job_not_found');
  return { message, job: presentJob(ctx, job) };
}

/**
 * Cancels a waiting or running job: it fails with a sentence naming the administrator's cancel; a
 * running job's worker stops its engine at its next heartbeat (the path of a deleted video). Nothing is
 * refunded here: the refund is its own action. 409 when the job already ended.
 */
export async function cancelJobAsAdmin(ctx: ServiceContext, actor: Actor, id: string) {
  const wasPending = await ctx.db.transaction(async (tx) => {
    const before = await requireJob(tx, id);
    if (heldStage(before) === 'output')
      throw conflict('This video is finished and held for review: approve or reject it instead.', 'job_held');
    const cancelled = await cancelJob(tx, id, CANCELLED_MESSAGE);
    if (!cancelled) throw conflict(`This job already ${before.status}: there is nothing to cancel.`, 'job_finished');
    await audit(tx, actor, 'cancel', before, { status: cancelled.status });
    return before.status === 'pending';
  });
  if (wasPending) await publishQueueMoved(ctx);
  return answer(ctx, id, 'The job was cancelled.');
}

/** Re-runs a failed job as a new job of the same owner, free (paid by the operator). 409 unless it failed. */
export async function rerunJobAsAdmin(ctx: ServiceContext, actor: Actor, id: string) {
  const created = await ctx.db.transaction(async (tx) => {
    const before = await requireJob(tx, id);
    if (before.status !== 'failed') throw conflict('Only a failed job can be re-run.', 'job_not_failed');
    const row = await rerunGeneration(ctx, tx, before);
    await audit(tx, actor, 'rerun', before, { newGenerationId: row.id, paidWith: row.paidWith });
    return row;
  });
  await publishQueueMoved(ctx);
  return answer(ctx, created.id, 'The job was queued again, free of charge.');
}

/**
 * Gives a failed job's charge back to what paid it (credits, a daily or a pack generation), once,
 * whatever REFUND_FAILED_GENERATIONS says. 409 when it did not fail, was refunded already, or cost nothing.
 */
export async function refundJobAsAdmin(ctx: ServiceContext, actor: Actor, id: string) {
  const message = await ctx.db.transaction(async (tx) => {
    const before = await requireJob(tx, id);
    if (before.status !== 'failed') throw conflict('Only a failed job can be refunded.', 'job_not_failed');
    if (before.refundedAt) throw conflict('This job was refunded already.', 'already_refunded');
    const refund = await refundFailedGeneration(tx, before, actor);
    if (!refund) throw conflict('This job cost nothing: there is nothing to refund.', 'nothing_to_refund');
    await audit(tx, actor, 'refund', before, {
      refundedWith: refund.paidWith,
      credits: toCredits(refund.creditsHundredths),
    });
    return refund.sentence;
  });
  return answer(ctx, id, `Refunded. ${message}`);
}

/**
 * Whether a video's frames are worth remembering: not the local preview engine's video made from a
 * description alone, a colour study that looks like every other one (its frames would match them all).
 */
function hasOwnFootage(row: repo.JobWithOwner): boolean {
  return row.model !== 'local' || Object.keys(row.inputs).length > 0 || row.referenceImages.length > 0;
}

const notHeld = () =>
  conflict('This job is not held for review (it was decided already, or never held).', 'job_not_held');

/**
 * Approves a job held for review: one held before rendering goes into the queue, a held finished
 * video is shown to its owner (and sent to their webhooks). 409 when it is not held.
 */
export async function approveJobAsAdmin(ctx: ServiceContext, actor: Actor, id: string, log: FastifyBaseLogger) {
  const stage = await ctx.db.transaction(async (tx) => {
    const before = await requireJob(tx, id);
    const released = await releaseHeldJob(ctx, tx, before);
    if (!released) throw notHeld();
    await audit(tx, actor, 'approve', before, { heldForReview: null, findings: before.heldForReview?.findings });
    return heldStage(before);
  });
  if (stage === 'output') {
    // Its owner hears of it now, as of any finished video (push or mail, as they chose).
    const row = await repo.findJob(ctx.db, id);
    if (row)
      notifyVideoFinished(
        ctx,
        { userId: row.userId, generationId: row.id, outcome: 'completed', description: row.prompt, reason: null },
        log,
      );
    return answer(ctx, id, 'Approved: the video is shown to its owner.');
  }
  await publishQueueMoved(ctx);
  return answer(ctx, id, 'Approved: the job is in the queue.');
}

/**
 * Refuses a job held for review: it fails as "Blocked by the content policy.", a held finished
 * video's files are deleted, and its charge comes back as REFUND_BLOCKED_GENERATIONS says. 409 when
 * it is not held.
 */
export async function rejectJobAsAdmin(ctx: ServiceContext, actor: Actor, id: string) {
  // A held finished video is remembered by perceptual hash before its files go (issue 44): it
  // cannot be uploaded or rendered again, as for a video taken down after a report.
  const held = await repo.findJob(ctx.db, id);
  const hashes =
    held && heldStage(held) === 'output' && held.outputKey && hasOwnFootage(held)
      ? await hashesOfStoredMedia(ctx, [{ key: held.outputKey, kind: 'video' }])
      : [];
  const rejected = await ctx.db.transaction(async (tx) => {
    const before = await requireJob(tx, id);
    const done = await rejectHeldJob(ctx, tx, before, BLOCKED_OUTPUT_MESSAGE);
    if (!done) throw notHeld();
    await audit(tx, actor, 'reject', before, { status: done.row.status, refunded: done.row.refundedAt !== null });
    return done;
  });
  await rememberTakenDown(ctx, hashes);
  await Promise.all(rejected.removeKeys.map((key) => ctx.storage.delete(key)));
  await publishQueueMoved(ctx);
  return answer(ctx, id, 'Rejected: the job failed as blocked by the content policy.');
}
