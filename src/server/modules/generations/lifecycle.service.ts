import { randomUUID } from 'node:crypto';
import type { ReviewHold } from '../../../shared/moderation';
import type { CredentialsReport } from '../../../shared/provenance';
import { HOUR_MS } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { GenerationRow } from '../../db/schema';
import { publishGenerationChange } from '../../bus/publish';
import type { WebhookEventType } from '../../../shared/webhooks';
import { type GenerationRefund, type RefundActor, refundGenerationCharge } from '../money/charge-generation.service';
import { recordWebhookEvent } from '../outbound-webhooks/webhooks.service';
import { presentRecord } from './generations.presenter';
import * as repo from './lifecycle.repository';

// Every change of a generation's state after it was created (progress, its provider task, completion,
// a retry, failing for good, an expired output) is written here, with its live event in the same
// transaction. The queue's own mechanics (claiming with SKIP LOCKED, the lease's heartbeat, handing a
// job back on shutdown) stay in src/server/jobs.

/** Claims so far: a job is tried at most this many times (a worker that died counts as one). */
export const MAX_ATTEMPTS = 3;

/** Every generated file of a user lives under this prefix. */
export const userOutputsPrefix = (userId: string) => `outputs/${userId}/`;
/** A fresh key per attempt, so a worker that lost its lease can never overwrite or delete the winner's file. */
export const outputKeyFor = (userId: string, id: string, extension: 'mp4' | 'jpg') =>
  `${userOutputsPrefix(userId)}${id}-${randomUUID().slice(0, 8)}.${extension}`;

/** A claimed job as the worker holding its lease names it. */
export interface LeasedJob {
  id: string;
  userId: string;
  workerId: string;
}

/**
 * Queues the user's `video.*` webhooks with the record as the API presents it now, in the transaction
 * of the change they report (nothing is read when no endpoint takes the event, but for a completion,
 * which is also `film.completed` when it is a film's).
 */
async function announceToWebhooks(
  ctx: ServiceContext,
  tx: Executor,
  job: { id: string; userId: string },
  type: WebhookEventType,
): Promise<void> {
  const at = ctx.now();
  let row: GenerationRow | null | undefined;
  const record = async () => {
    row ??= await repo.findRow(tx, job.id);
    return row ? presentRecord(ctx.secret, row, at) : null;
  };
  await recordWebhookEvent(tx, { userId: job.userId, type, at, data: record });
  // A film is a video like any other, and announced as a film too to endpoints that follow films.
  if (type === 'video.completed') {
    row ??= await repo.findRow(tx, job.id);
    if (row?.film) await recordWebhookEvent(tx, { userId: job.userId, type: 'film.completed', at, data: record });
  }
}

/**
 * The last progress step each running job told webhooks about (its tenth of the way and its stage):
 * `video.progress` goes out when either moves, not on every once-a-second save.
 */
const progressAnnounced = new Map<string, string>();

/** Writes a change and, when it hit the job (still ours), its live event; answers whether it hit. */
function changeAndAnnounce(
  ctx: ServiceContext,
  job: LeasedJob,
  write: (tx: Executor) => Promise<boolean>,
  webhook?: WebhookEventType,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    if (!(await write(tx))) return false;
    await publishGenerationChange(tx, job.userId, job.id);
    if (webhook) await announceToWebhooks(ctx, tx, job, webhook);
    return true;
  });
}

/** Saves progress (and renews the lease); false when the job is gone or no longer this worker's. */
export function saveProgress(
  ctx: ServiceContext,
  job: LeasedJob,
  progress: { progress: number; stage: string; leaseSeconds: number },
): Promise<boolean> {
  const step = `${Math.floor(progress.progress / 10)}|${progress.stage}`;
  const announce = progressAnnounced.get(job.id) !== step;
  if (announce) progressAnnounced.set(job.id, step);
  return changeAndAnnounce(
    ctx,
    job,
    (tx) => repo.saveProgress(tx, job.id, job.workerId, progress),
    announce ? 'video.progress' : undefined,
  );
}

/** Remembers the provider's task id, so a retry resumes it instead of paying twice; false when not ours. */
export function saveProviderTask(ctx: ServiceContext, job: LeasedJob, taskId: string): Promise<boolean> {
  return repo.saveProviderTask(ctx.db, job.id, job.workerId, taskId);
}

/** Records the finished video (kept 24 hours); false when the job is no longer this worker's. */
export function completeGeneration(
  ctx: ServiceContext,
  job: LeasedJob,
  output: { outputKey: string; posterKey: string | null; outputDuration: number; credentials: CredentialsReport },
): Promise<boolean> {
  progressAnnounced.delete(job.id);
  return changeAndAnnounce(
    ctx,
    job,
    (tx) =>
      repo.complete(tx, job.id, job.workerId, {
        ...output,
        retentionSeconds: (ctx.config.retention.videoHours * HOUR_MS) / 1000,
      }),
    'video.completed',
  );
}

/** Puts the job back in the queue after a transient failure; false when it is no longer this worker's. */
export function retryGeneration(
  ctx: ServiceContext,
  job: LeasedJob,
  retry: { delaySeconds: number; stage: string; restartTask: boolean },
): Promise<boolean> {
  progressAnnounced.delete(job.id);
  return changeAndAnnounce(ctx, job, (tx) => repo.retryLater(tx, job.id, job.workerId, retry));
}

/**
 * Whose failure it was: the user's (a provider's content refusal, a bad input) is never refunded; the
 * system's may be (REFUND_FAILED_GENERATIONS); a video this server's content policy stopped after it
 * was rendered ('blocked') as REFUND_BLOCKED_GENERATIONS says.
 */
export type FailureCause = 'user' | 'system' | 'blocked';

/** The refund policy's name on ledger rows and in the audit of what it gave back. */
const REFUND_POLICY = { label: 'system', userId: null };

/**
 * Gives a failed generation's charge back, at most once (the row's `refunded_at`, set under its row
 * lock, decides), in the caller's transaction: the ledger row to what paid it, and the sentence saying
 * so added to the job's message. Null when it was refunded already, is not failed, or cost nothing.
 */
export async function refundFailedGeneration(
  tx: Executor,
  row: Pick<GenerationRow, 'id' | 'paidWith' | 'creditsUsedHundredths'>,
  actor: RefundActor,
): Promise<GenerationRefund | null> {
  if (!['credits', 'daily', 'pack'].includes(row.paidWith)) return null;
  if (row.paidWith === 'credits' && row.creditsUsedHundredths <= 0) return null;
  const marked = await repo.markRefunded(tx, row.id);
  if (!marked) return null;
  const refund = await refundGenerationCharge(tx, marked, actor);
  if (refund) await repo.appendErrorMessage(tx, row.id, refund.sentence);
  return refund;
}

/**
 * The one way a generation fails: marked failed, the refund policy applied (a system failure gives its
 * charge back when REFUND_FAILED_GENERATIONS is on) and its owner told, in the caller's transaction.
 * Answers the failed record (null when the job was no longer this worker's).
 */
async function markFailed(
  ctx: ServiceContext,
  tx: Executor,
  failure: { id: string; workerId: string | null; message: string; cause: FailureCause },
): Promise<GenerationRow | null> {
  progressAnnounced.delete(failure.id);
  const failed = await repo.fail(tx, failure.id, failure.workerId, failure.message);
  if (!failed) return null;
  const refund =
    failure.cause === 'system'
      ? ctx.config.operations.refundFailedGenerations
      : failure.cause === 'blocked' && ctx.config.moderation.refundBlocked;
  if (refund) await refundFailedGeneration(tx, failed, REFUND_POLICY);
  await publishGenerationChange(tx, failed.userId, failed.id);
  await announceToWebhooks(ctx, tx, failed, 'video.failed');
  return failed;
}

/** Fails a job for good, in one transaction; answers the failed record (null when it was no longer this worker's). */
export function failForGood(
  ctx: ServiceContext,
  job: Omit<LeasedJob, 'userId'>,
  message: string,
  cause: FailureCause,
): Promise<GenerationRow | null> {
  return ctx.db.transaction((tx) => markFailed(ctx, tx, { id: job.id, workerId: job.workerId, message, cause }));
}

/**
 * Fails the jobs whose last allowed attempt died with its worker (the system's failure), each by one
 * worker only; answers them.
 */
export async function failExhaustedJobs(ctx: ServiceContext, message: string): Promise<GenerationRow[]> {
  return ctx.db.transaction(async (tx) => {
    const failed: GenerationRow[] = [];
    for (const row of await repo.lockExhausted(tx, MAX_ATTEMPTS)) {
      const done = await markFailed(ctx, tx, { id: row.id, workerId: null, message, cause: 'system' });
      if (done) failed.push(done);
    }
    return failed;
  });
}

/**
 * Cancels a job that is still waiting or running (an administrator's cancel), in the caller's
 * transaction, with its live event: it fails with `message`, and a running job's worker, whose next
 * heartbeat or progress write then misses, stops its engine as for a deleted video. Null when it
 * already ended.
 */
export async function cancelJob(tx: Executor, id: string, message: string): Promise<GenerationRow | null> {
  const cancelled = await repo.cancel(tx, id, message);
  if (cancelled) await publishGenerationChange(tx, cancelled.userId, cancelled.id);
  return cancelled;
}

/**
 * Keeps a finished video that screening flagged for an administrator's decision (issue 43): stored,
 * signed, and neither shown, sent to webhooks nor announced to its owner until approved. False when
 * the job is no longer this worker's.
 */
export function holdFinishedGeneration(
  ctx: ServiceContext,
  job: LeasedJob,
  output: { outputKey: string; posterKey: string | null; outputDuration: number; credentials: CredentialsReport },
  hold: ReviewHold,
): Promise<boolean> {
  progressAnnounced.delete(job.id);
  return changeAndAnnounce(ctx, job, (tx) => repo.holdOutput(tx, job.id, job.workerId, { ...output, hold }));
}

/** Whether a job is held for review, and at which stage (a finished video, or before it is rendered). */
export function heldStage(held: Pick<GenerationRow, 'status' | 'heldForReview'>): 'before' | 'output' | null {
  if (!held.heldForReview) return null;
  if (held.status === 'pending') return 'before';
  return held.status === 'processing' && held.heldForReview.stage === 'output' ? 'output' : null;
}

/**
 * An administrator approved a held job, with its live event: one held before rendering goes into the
 * queue; a held finished video is completed now (kept from now on, its `video.completed` webhook sent).
 * Null when it is not held.
 */
export async function releaseHeldJob(
  ctx: ServiceContext,
  tx: Executor,
  held: Pick<GenerationRow, 'id' | 'userId' | 'status' | 'heldForReview'>,
): Promise<GenerationRow | null> {
  const stage = heldStage(held);
  if (!stage) return null;
  const released =
    stage === 'before'
      ? await repo.releaseHold(tx, held.id)
      : await repo.completeHeldOutput(tx, held.id, (ctx.config.retention.videoHours * HOUR_MS) / 1000);
  if (!released) return null;
  await publishGenerationChange(tx, released.userId, released.id);
  if (stage === 'output') await announceToWebhooks(ctx, tx, released, 'video.completed');
  return released;
}

/**
 * Fails a job held for review (an administrator rejected it) as a video the content policy stopped:
 * its charge comes back as REFUND_BLOCKED_GENERATIONS says, and a held finished video's record forgets
 * its files (answered in `removeKeys`, for the caller to delete once the transaction commits). Null
 * when it is not held.
 */
export async function rejectHeldJob(
  ctx: ServiceContext,
  tx: Executor,
  held: Pick<GenerationRow, 'id' | 'status' | 'heldForReview' | 'outputKey' | 'posterKey'>,
  message: string,
): Promise<{ row: GenerationRow; removeKeys: string[] } | null> {
  const stage = heldStage(held);
  if (!stage) return null;
  const row = await markFailed(ctx, tx, { id: held.id, workerId: null, message, cause: 'blocked' });
  if (!row) return null;
  const removeKeys = [held.outputKey, held.posterKey].filter((key): key is string => key !== null);
  if (removeKeys.length > 0) await repo.clearOutput(tx, held.id);
  return { row, removeKeys };
}

/** Forgets an expired output whose files are deleted; the record stays, without a video. */
export async function clearExpiredOutput(ctx: ServiceContext, row: { id: string; userId: string }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await repo.clearOutput(tx, row.id);
    await publishGenerationChange(tx, row.userId, row.id);
  });
}
