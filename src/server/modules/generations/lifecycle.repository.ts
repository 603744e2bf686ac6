import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { CredentialsReport } from '../../../shared/provenance';
import type { Executor } from '../../db/client';
import { type GenerationRow, generations, nextVersion } from '../../db/schema';

const fromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
/** A job still held by this worker's lease: once another worker took it over, or it was deleted, writes miss. */
const ownedBy = (id: string, workerId: string) =>
  and(eq(generations.id, id), eq(generations.leaseOwner, workerId), eq(generations.status, 'processing'));

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

export async function complete(
  tx: Executor,
  id: string,
  workerId: string,
  output: {
    outputKey: string;
    posterKey: string | null;
    outputDuration: number;
    credentials: CredentialsReport;
    retentionSeconds: number;
  },
): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'completed',
      outputKey: output.outputKey,
      posterKey: output.posterKey,
      outputDuration: output.outputDuration,
      credentials: output.credentials,
      progress: 100,
      progressStage: 'Completed',
      errorMessage: null,
      completedAt: sql`now()`,
      expiresAt: fromNow(output.retentionSeconds),
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
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
    .where(
      and(
        eq(generations.id, id),
        eq(generations.status, 'pending'),
        // A hold object: a new row's absent hold may be stored as JSON null, not SQL NULL.
        sql`jsonb_typeof(${generations.heldForReview}) = 'object'`,
      ),
    )
    .returning();
  return row ?? null;
}
