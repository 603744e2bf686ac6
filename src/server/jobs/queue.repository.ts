import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { type GenerationRow, generations, nextVersion } from '../db/schema';

/** Claims so far: a job is tried at most this many times (a worker that died counts as one). */
export const MAX_ATTEMPTS = 3;

const leaseUntil = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const ownedBy = (id: string, workerId: string) =>
  and(eq(generations.id, id), eq(generations.leaseOwner, workerId), eq(generations.status, 'processing'));

/**
 * Claims the oldest runnable job: a pending one whose backoff has passed, or a processing one
 * whose lease expired (its worker died). SKIP LOCKED lets any number of workers claim at once
 * without waiting on each other or taking the same job.
 */
export async function claimNext(tx: Executor, workerId: string, leaseSeconds: number): Promise<GenerationRow | null> {
  const next = sql`(
    SELECT id FROM generations
    WHERE ((status = 'pending' AND run_after <= now())
        OR (status = 'processing' AND lease_expires_at < now()))
      AND attempts < ${MAX_ATTEMPTS}
    ORDER BY created_at
    FOR UPDATE SKIP LOCKED
    LIMIT 1
  )`;
  const [row] = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'processing',
      leaseOwner: workerId,
      leaseExpiresAt: leaseUntil(leaseSeconds),
      attempts: sql`${generations.attempts} + 1`,
      startedAt: sql`coalesce(${generations.startedAt}, now())`,
      progressStage: 'Starting',
    })
    .where(eq(generations.id, next))
    .returning();
  return row ?? null;
}

/** Jobs whose last allowed attempt died with its worker: locked so only one worker fails each. */
export async function lockExhausted(tx: Executor): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.status, 'processing'),
        lt(generations.leaseExpiresAt, sql`now()`),
        gte(generations.attempts, MAX_ATTEMPTS),
      ),
    )
    .limit(20)
    .for('update', { skipLocked: true });
}

/** Renews the lease; false when the job is gone (deleted) or no longer ours. */
export async function heartbeat(tx: Executor, id: string, workerId: string, leaseSeconds: number): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({ ...nextVersion(), leaseExpiresAt: leaseUntil(leaseSeconds) })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

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
      leaseExpiresAt: leaseUntil(progress.leaseSeconds),
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
  output: { outputKey: string; posterKey: string | null; outputDuration: number; retentionSeconds: number },
): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'completed',
      outputKey: output.outputKey,
      posterKey: output.posterKey,
      outputDuration: output.outputDuration,
      progress: 100,
      progressStage: 'Completed',
      errorMessage: null,
      completedAt: sql`now()`,
      expiresAt: leaseUntil(output.retentionSeconds),
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

/** Puts a job back in the queue after a transient failure, not before the backoff has passed. */
export async function retryLater(
  tx: Executor,
  id: string,
  workerId: string,
  retry: { delaySeconds: number; stage: string; restartTask: boolean },
): Promise<boolean> {
  const { delaySeconds, stage } = retry;
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      ...(retry.restartTask ? { providerTaskId: null } : {}),
      status: 'pending',
      runAfter: leaseUntil(delaySeconds),
      progressStage: stage,
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}

/** Hands a job back untouched (the worker is shutting down): this claim does not count as an attempt. */
export async function release(tx: Executor, id: string, workerId: string): Promise<boolean> {
  const rows = await tx
    .update(generations)
    .set({
      ...nextVersion(),
      status: 'pending',
      attempts: sql`greatest(${generations.attempts} - 1, 0)`,
      progressStage: 'Waiting in queue',
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where(ownedBy(id, workerId))
    .returning({ id: generations.id });
  return rows.length > 0;
}
