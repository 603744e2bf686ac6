import { and, eq, gt, gte, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { liveEvents, sessions } from '../../db/schema';

/** When one of the user's events was recorded; null when it is not theirs or was pruned. */
export async function findUserEventTime(tx: Executor, userId: string, id: number): Promise<Date | null> {
  const [row] = await tx
    .select({ createdAt: liveEvents.createdAt })
    .from(liveEvents)
    .where(and(eq(liveEvents.id, id), eq(liveEvents.userId, userId)));
  return row?.createdAt ?? null;
}

/** The user's events after `afterId`, and those recorded since `since` (transactions commit out of id order). */
export function userEventsSince(tx: Executor, userId: string, afterId: number, since: Date) {
  return tx
    .select({ id: liveEvents.id, kind: liveEvents.kind, generationId: liveEvents.generationId })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), or(gt(liveEvents.id, afterId), gte(liveEvents.createdAt, since))))
    .orderBy(liveEvents.id)
    .limit(5000);
}

/** Which of these sessions still exist and have not expired (a stream of a signed-out session is closed). */
export async function liveSessionIds(tx: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, ids), gt(sessions.expiresAt, sql`now()`)));
  return new Set(rows.map((row) => row.id));
}
