import { and, eq, lt, or, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/**
 * Claims (userId, key) for a new request: inserts it, or takes over a row older than `staleBefore`
 * or one still without an answer since `abandonedBefore`. Answers true when this request owns the key now.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  data: { userId: string; key: string; requestHash: string; createdAt: Date },
  staleBefore: Date,
  abandonedBefore: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({ ...data, responseStatus: null, responseBody: null })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { requestHash: data.requestHash, responseStatus: null, responseBody: null, createdAt: data.createdAt },
      setWhere: or(
        lt(idempotencyKeys.createdAt, staleBefore),
        and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, abandonedBefore)),
      ),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function findIdempotencyKey(tx: Executor, userId: string, key: string): Promise<IdempotencyRow | null> {
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row ?? null;
}

export async function saveIdempotentAnswer(
  tx: Executor,
  userId: string,
  key: string,
  requestHash: string,
  answer: { status: number; body: string },
): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseBody: answer.body })
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
      ),
    );
}

export async function releaseIdempotencyKey(tx: Executor, userId: string, key: string, requestHash: string) {
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

export async function deleteIdempotencyKeysBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
