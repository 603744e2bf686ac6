import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { type GenerationRow, generations, nextVersion } from '../db/schema';
import { MAX_ATTEMPTS } from '../modules/generations/lifecycle.service';

// The queue's own mechanics: claiming a job, holding its lease, handing it back. Every other change
// of a generation's state is modules/generations/lifecycle.service.ts's.

const leaseUntil = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const ownedBy = (id: string, workerId: string) =>
  and(eq(generations.id, id), eq(generations.leaseOwner, workerId), eq(generations.status, 'processing'));

/**
 * Claims the runnable job whose turn comes first: a pending one whose backoff has passed, or a
 * processing one whose lease expired (its worker died). Turns (`queue_key`, set when a job is made:
 * generations.repository.ts) are fair between users: one user's batch is spread a turn apart, so
 * another user's single job made meanwhile goes between them instead of behind them all. One walk
 * of `generations_fair_queue_idx`, stopping at the first runnable job. SKIP LOCKED lets any number
 * of workers claim at once without waiting on each other or taking the same job. Every worker loop
 * runs it all the time, so it is named (prepared): PostgreSQL parses and plans it once per
 * connection (its text never changes; the worker, lease and attempts are parameters).
 */
export async function claimNext(
  tx: Executor,
  workerId: string,
  leaseSeconds: number,
  maxAttempts = MAX_ATTEMPTS,
): Promise<GenerationRow | null> {
  const next = sql`(
    SELECT id FROM generations
    WHERE status IN ('pending', 'processing')
      AND ((status = 'pending' AND run_after <= now())
        OR (status = 'processing' AND lease_expires_at < now()))
      AND attempts < ${maxAttempts}
      AND jsonb_typeof(held_for_review) IS DISTINCT FROM 'object'
    ORDER BY queue_key
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
    .returning()
    .prepare('queue_claim_next')
    .execute();
  return row ?? null;
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
