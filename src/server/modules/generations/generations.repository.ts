import { and, count, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type GenerationRow, generations, nextVersion, users } from '../../db/schema';

export interface LockedPayer {
  creditsHundredths: number;
  subscriptionStatus: (typeof users.$inferSelect)['subscriptionStatus'];
  plan: (typeof users.$inferSelect)['plan'];
}

/** Locks the user's row for the rest of the transaction: concurrent requests of one user queue here. */
export async function lockPayer(tx: Executor, userId: string): Promise<LockedPayer | null> {
  const [row] = await tx
    .select({
      creditsHundredths: users.creditsHundredths,
      subscriptionStatus: users.subscriptionStatus,
      plan: users.plan,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export async function countUnfinished(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(generations)
    .where(and(eq(generations.userId, userId), inArray(generations.status, ['pending', 'processing'])));
  return row?.n ?? 0;
}

export async function insertGeneration(tx: Executor, row: typeof generations.$inferInsert): Promise<GenerationRow> {
  const [inserted] = await tx.insert(generations).values(row).returning();
  if (!inserted) throw new Error('generation insert returned no row');
  return inserted;
}

export async function setPayment(
  tx: Executor,
  id: string,
  paid: { paidWith: GenerationRow['paidWith']; creditsHundredths: number },
): Promise<GenerationRow> {
  const [row] = await tx
    .update(generations)
    .set({ ...nextVersion(), creditsUsedHundredths: paid.creditsHundredths, paidWith: paid.paidWith })
    .where(eq(generations.id, id))
    .returning();
  if (!row) throw new Error(`generation ${id} vanished inside its own transaction`);
  return row;
}

/** A user's generations, newest first. */
export function listForUser(tx: Executor, userId: string, limit: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(eq(generations.userId, userId))
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(limit);
}

export async function deleteForUser(tx: Executor, userId: string, id: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .delete(generations)
    .where(and(eq(generations.id, id), eq(generations.userId, userId)))
    .returning();
  return row ?? null;
}

/** Completed generations whose output is past its expiry and still stored. */
export function findExpiredOutputs(tx: Executor, now: Date, limit: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(and(isNotNull(generations.outputKey), lt(generations.expiresAt, now)))
    .limit(limit);
}

export async function clearOutput(tx: Executor, id: string): Promise<void> {
  await tx
    .update(generations)
    .set({ ...nextVersion(), outputKey: null, posterKey: null })
    .where(eq(generations.id, id));
}

/** Finished generations made before `before` (their records have outlived the retention period). */
export function findOldRecords(tx: Executor, before: Date, limit: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(and(lt(generations.createdAt, before), inArray(generations.status, ['completed', 'failed'])))
    .limit(limit);
}

export async function deleteById(tx: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await tx.delete(generations).where(eq(generations.id, id)).returning();
  return row ?? null;
}

/** One of the user's generations; null when it is not theirs or is gone. */
export async function findForUser(tx: Executor, userId: string, id: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .select()
    .from(generations)
    .where(and(eq(generations.id, id), eq(generations.userId, userId)));
  return row ?? null;
}

/** Which of these uploads another generation of the user still names as an input. */
export async function uploadsStillUsed(tx: Executor, userId: string, uploadIds: string[]): Promise<Set<string>> {
  if (uploadIds.length === 0) return new Set();
  const named = (kind: string) => sql<string>`${generations.inputs} -> ${kind} ->> 'uploadId'`;
  const rows = await tx
    .select({ image: named('image'), video: named('video'), audio: named('audio') })
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        or(...['image', 'video', 'audio'].map((kind) => inArray(named(kind), uploadIds))),
      ),
    );
  return new Set(
    rows
      .flatMap((r) => [r.image, r.video, r.audio])
      .filter((id): id is string => Boolean(id) && uploadIds.includes(id)),
  );
}

/** Places in the queue (1 is next) of these waiting jobs, counting every user's waiting jobs ahead. */
export async function queuePositions(tx: Executor, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const ranked = tx
    .select({
      id: generations.id,
      position: sql<number>`row_number() over (order by ${generations.createdAt}, ${generations.id})`
        .mapWith(Number)
        .as('position'),
    })
    .from(generations)
    .where(eq(generations.status, 'pending'))
    .as('ranked');
  const rows = await tx
    .select({ id: ranked.id, position: ranked.position })
    .from(ranked)
    .where(inArray(ranked.id, ids));
  return new Map(rows.map((row) => [row.id, Number(row.position)]));
}

/** Jobs running now and how long the latest completed ones took (seconds; null with no history). */
export async function queueStats(tx: Executor): Promise<{ running: number; averageSeconds: number | null }> {
  const recent = tx
    .select({
      seconds: sql<number>`extract(epoch from ${generations.completedAt} - ${generations.startedAt})`.as('seconds'),
    })
    .from(generations)
    .where(
      and(eq(generations.status, 'completed'), isNotNull(generations.startedAt), isNotNull(generations.completedAt)),
    )
    .orderBy(desc(generations.completedAt))
    .limit(20)
    .as('recent');
  const [[running], [average]] = await Promise.all([
    tx.select({ n: count() }).from(generations).where(eq(generations.status, 'processing')),
    tx.select({ seconds: sql<string | null>`avg(${recent.seconds})` }).from(recent),
  ]);
  return { running: running?.n ?? 0, averageSeconds: average?.seconds == null ? null : Number(average.seconds) };
}
