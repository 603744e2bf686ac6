import { and, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { HELD_FOR_REVIEW_STAGE, type ReviewHold } from '../../../shared/moderation';
import type { CredentialsReport } from '../../../shared/provenance';
import type { Executor } from '../../db/client';
import { type GenerationRow, generations, nextVersion } from '../../db/schema';

const fromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
/** A job still held by this worker's lease: once another worker took it over, or it was deleted, writes miss. */
const ownedBy = (id: string, workerId: string) =>
  and(eq(generations.id, id), eq(generations.leaseOwner, workerId), eq(generations.status, 'processing'));
/** Held for review: a hold object (a new row's absent hold may be stored as JSON null, not SQL NULL). */
const isHeld = sql`jsonb_typeof(${generations.heldForReview}) = 'object'`;

export async function saveProgress(
  tx: Executor,
  id: string,
  workerId: string,
  progress: { progress: number; stage: string; leaseSeconds: number },
): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      progress: progress.progress,
      progressStage: progress.stage,
      leaseExpiresAt: fromNow(progress.leaseSeconds),
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

export async function saveProviderTask(tx: Executor, id: string, workerId: string, taskId: string): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({ ...nextVersion(), providerTaskId: taskId })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

/** A stored video's files and what its worker measured and signed. */
export interface StoredVideo {
  outputKey: string;
  posterKey: string | null;
  outputDuration: number;
  credentials: CredentialsReport;
}

/**
 * Writes a finished video's files on its job, with `fields`, while this worker holds it: the job's
 * lease ends. False when the job is no longer this worker's.
 */
async function storeVideo(
  tx: Executor,
  id: string,
  workerId: string,
  video: StoredVideo,
  fields: PgUpdateSetSource<typeof generations>,
): Promise<boolean> {
  const { outputKey, posterKey, outputDuration, credentials } = video;
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      ...fields,
      outputKey,
      posterKey,
      outputDuration,
      credentials,
      progress: 100,
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

export function complete(
  tx: Executor,
  id: string,
  workerId: string,
  output: StoredVideo & { retentionSeconds: number },
): Promise<boolean> {
  return storeVideo(tx, id, workerId, output, {
    status: 'completed',
    progressStage: 'Completed',
    errorMessage: null,
    completedAt: sql`now()`,
    expiresAt: fromNow(output.retentionSeconds),
  });
}

/**
 * Keeps a finished video that screening flagged, not shown until an administrator decides: the job
 * stays unfinished (no lease, so no worker claims it again) with its files and hold. False when the
 * job is no longer this worker's.
 */
export function holdOutput(
  tx: Executor,
  id: string,
  workerId: string,
  output: StoredVideo & { hold: ReviewHold },
): Promise<boolean> {
  return storeVideo(tx, id, workerId, output, { heldForReview: output.hold, progressStage: HELD_FOR_REVIEW_STAGE });
}

/** A finished video held for review, approved: completed now, kept from now. Null when it is not one. */
export async function completeHeldOutput(
  tx: Executor,
  id: string,
  retentionSeconds: number,
): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'completed',
      heldForReview: null,
      progressStage: 'Completed',
      completedAt: sql`now()`,
      expiresAt: fromNow(retentionSeconds),
    })
    .where(and(eq(generations.id, id), eq(generations.status, 'processing'), isHeld, isNotNull(generations.outputKey)))
    .returning();
  return row ?? null;
}

/** Marks a job failed for good; answers the row (for the refund policy) or null when not ours. */
export async function fail(
  tx: Executor,
  id: string,
  workerId: string | null,
  message: string,
): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'failed',
      errorMessage: message,
      progressStage: 'Failed',
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(workerId ? ownedBy(id, workerId) : eq(generations.id, id))
    .returning();
  return row ?? null;
}

/** Jobs whose last allowed attempt died with its worker: locked so only one worker fails each. */
export async function lockExhausted(tx: Executor, maxAttempts: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.status, 'processing'),
        lt(generations.leaseExpiresAt, sql`now()`),
        gte(generations.attempts, maxAttempts),
      ),
    )
    .limit(20)
    .for('update', { skipLocked: true });
}

/** Puts a job back in the queue after a transient failure, not before the backoff has passed. */
export async function retryLater(
  tx: Executor,
  id: string,
  workerId: string,
  retry: { delaySeconds: number; stage: string; restartTask: boolean },
): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      ...(retry.restartTask ? { providerTaskId: null } : {}),
      status: 'pending',
      runAfter: fromNow(retry.delaySeconds),
      progressStage: retry.stage,
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

/** Forgets an expired output's files (already deleted from storage); the record stays. */
export async function clearOutput(tx: Executor, id: string): Promise<void> {
  await tx
    .update(generations)
    .set({ ...nextVersion(), outputKey: null, posterKey: null })
    .where(eq(generations.id, id));
}

/** One generation as it is now (inside the transaction that changed it). */
export async function findRow(tx: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await tx.select().from(generations).where(eq(generations.id, id));
  return row ?? null;
}

/**
 * Marks a failed generation refunded, once: answers the row when this call marked it, null when it is
 * not failed, was refunded already, or is gone. The row lock it takes makes a concurrent second call wait,
 * then miss.
 */
export async function markRefunded(tx: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({ ...nextVersion(), refundedAt: sql`now()` })
    .where(and(eq(generations.id, id), eq(generations.status, 'failed'), isNull(generations.refundedAt)))
    .returning();
  return row ?? null;
}

/** Adds a sentence to a failed job's message (what was given back). */
export async function appendErrorMessage(tx: Executor, id: string, sentence: string): Promise<void> {
  await tx
    .update(generations)
    .set({ ...nextVersion(), errorMessage: sql`concat_ws(' ', ${generations.errorMessage}, ${sentence}::text)` })
    .where(eq(generations.id, id));
}

/** Fails a job that is still waiting or running (an administrator's cancel); null when it already ended. */
export async function cancel(tx: Executor, id: string, message: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'failed',
      errorMessage: message,
      progressStage: 'Cancelled',
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(and(eq(generations.id, id), inArray(generations.status, ['pending', 'processing'])))
    .returning();
  return row ?? null;
}

/** Lets a held job into the queue (its hold cleared); null when it is not a waiting job held for review. */
export async function releaseHold(tx: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .update(generations)
    .set({ ...nextVersion(), heldForReview: null, progressStage: 'Waiting in queue' })
    .where(and(eq(generations.id, id), eq(generations.status, 'pending'), isHeld))
    .returning();
  return row ?? null;
}
