import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { extraGenerationPacks, type GenerationRow, generations, users } from '../../db/schema';

export interface LockedPayer {
  creditsHundredths: number;
  subscriptionStatus: (typeof users.$inferSelect)['subscriptionStatus'];
  plan: (typeof users.$inferSelect)['plan'];
  /** The user's own daily spend cap (hundredths); null follows DAILY_SPEND_CAP_CREDITS. */
  dailySpendCapHundredths: number | null;
}

// The create's statements run on every POST /api/video-generation: they are named, so PostgreSQL
// parses and plans each once per connection instead of on every request (planning these costs more
// than running them). A name must always carry the same SQL text, hence fixed shapes below.

/** Locks the user's row for the rest of the transaction: concurrent requests of one user queue here. */
export async function lockPayer(tx: Executor, userId: string): Promise<LockedPayer | null> {
  const [row] = await tx
    .select({
      creditsHundredths: users.creditsHundredths,
      subscriptionStatus: users.subscriptionStatus,
      plan: users.plan,
      dailySpendCapHundredths: users.dailySpendCapHundredths,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .prepare('generation_lock_payer')
    .execute();
  return row ?? null;
}

/**
 * Read after the user's row lock is taken (so every change committed before it is seen), in one
 * statement: their unfinished jobs, whether an unexpired extra pack of theirs has generations left,
 * and how many jobs wait in the queue (a count on the queue's partial index, no ranking).
 */
export async function unfinishedAndPacks(
  tx: Executor,
  userId: string,
  now: Date,
): Promise<{ unfinished: number; hasPackGenerations: boolean; waiting: number }> {
  const unfinished = tx
    .select({ n: count() })
    .from(generations)
    .where(and(eq(generations.userId, userId), inArray(generations.status, ['pending', 'processing'])));
  const usablePacks = tx
    .select({ one: sql`1` })
    .from(extraGenerationPacks)
    .where(
      and(
        eq(extraGenerationPacks.userId, userId),
        gt(extraGenerationPacks.expiresAt, now),
        lt(extraGenerationPacks.used, extraGenerationPacks.generations),
      ),
    );
  const waiting = tx.select({ n: count() }).from(generations).where(eq(generations.status, 'pending'));
  const [row] = await tx
    .select({
      unfinished: sql<number>`(${unfinished})`.mapWith(Number),
      hasPackGenerations: sql<boolean>`exists (${usablePacks})`,
      waiting: sql<number>`(${waiting})`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.id, userId))
    .prepare('generation_unfinished_and_packs')
    .execute();
  return {
    unfinished: row?.unfinished ?? 0,
    hasPackGenerations: row?.hasPackGenerations === true,
    waiting: row?.waiting ?? 0,
  };
}

export async function insertGeneration(tx: Executor, row: typeof generations.$inferInsert): Promise<GenerationRow> {
  const [inserted] = await tx.insert(generations).values(row).returning();
  if (!inserted) throw new Error('generation insert returned no row');
  return inserted;
}

/** Every field a new request's generation is written with: one shape, so one SQL text for its statement's name. */
export type NewPaidGeneration = Required<
  Pick<
    typeof generations.$inferInsert,
    | 'id'
    | 'userId'
    | 'prompt'
    | 'model'
    | 'requestedDuration'
    | 'hasAudio'
    | 'isEconomy'
    | 'settings'
    | 'inputs'
    | 'endImage'
    | 'referenceImages'
    | 'progressStage'
    | 'creditsUsedHundredths'
    | 'providerCostMicroUsd'
    | 'paidWith'
    | 'parentId'
    | 'groupId'
    | 'extension'
  >
>;

/**
 * How far apart one user's unfinished jobs take their turns in the queue: a job made while the user
 * has unfinished ones waits one turn after their last, so a batch of theirs lets every job another
 * user makes within a turn of it go between (decision in README, Making videos). About one job's time.
 */
export const FAIR_TURN_SECONDS = 60;

/** A new job's turn: now, or one turn after the user's last unfinished job (read under their row lock). */
const nextTurnOf = (userId: string) =>
  sql<Date>`greatest(now(), (SELECT max(q.queue_key) FROM generations q WHERE q.user_id = ${userId} AND q.status IN ('pending', 'processing')) + make_interval(secs => ${FAIR_TURN_SECONDS}))`;

/** Inserts a new request's generation with its id (made by the caller, so its payment could name it first) and its payment. */
export async function insertPaidGeneration(tx: Executor, row: NewPaidGeneration): Promise<GenerationRow> {
  const [inserted] = await tx
    .insert(generations)
    .values({ ...row, queueKey: nextTurnOf(row.userId) })
    .returning()
    .prepare('generation_insert_paid')
    .execute();
  if (!inserted) throw new Error('generation insert returned no row');
  return inserted;
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
  return (
    tx
      .select()
      .from(generations)
      // A kept video has no expiry; the condition on `kept` says so again, in case.
      .where(and(isNotNull(generations.outputKey), lt(generations.expiresAt, now), eq(generations.kept, false)))
      .limit(limit)
  );
}

/**
 * Finished generations made before `before` (their records have outlived the retention period);
 * never a kept one, nor one whose video has not reached its expiry at `now` (VIDEO_RETENTION_HOURS
 * may be longer than the records' days, and a video no longer kept has its hours again).
 */
export function findOldRecords(tx: Executor, before: Date, now: Date, limit: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(
      and(
        lt(generations.createdAt, before),
        inArray(generations.status, ['completed', 'failed']),
        eq(generations.kept, false),
        or(isNull(generations.expiresAt), lt(generations.expiresAt, now)),
      ),
    )
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
  const endImage = sql<string>`${generations.endImage} ->> 'uploadId'`;
  const rows = await tx
    .select({
      image: named('image'),
      video: named('video'),
      audio: named('audio'),
      endImage,
      references: generations.referenceImages,
    })
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        or(
          ...['image', 'video', 'audio'].map((kind) => inArray(named(kind), uploadIds)),
          inArray(endImage, uploadIds),
          sql`jsonb_array_length(${generations.referenceImages}) > 0`,
        ),
      ),
    );
  return new Set(
    rows
      .flatMap((r) => [r.image, r.video, r.audio, r.endImage, ...r.references.map((ref) => ref.uploadId)])
      .filter((id): id is string => Boolean(id) && uploadIds.includes(id)),
  );
}

/** Places in the queue (1 is next) of these waiting jobs, in the fair claim's order (their turns), counting every user's waiting jobs ahead. */
export async function queuePositions(tx: Executor, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const ranked = tx
    .select({
      id: generations.id,
      position:
        sql<number>`row_number() over (order by ${generations.queueKey}, ${generations.createdAt}, ${generations.id})`
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

/**
 * The queue now (metrics, the jobs console), in one statement on the queue's partial index: pending and processing
 * jobs, and how long the oldest runnable pending job has waited (seconds, 0 when none).
 */
export async function queueSnapshot(
  tx: Executor,
): Promise<{ pending: number; processing: number; oldestWaitSeconds: number }> {
  const [row] = await tx
    .select({
      pending: sql<number>`count(*) filter (where ${generations.status} = 'pending')`.mapWith(Number),
      processing: sql<number>`count(*) filter (where ${generations.status} = 'processing')`.mapWith(Number),
      oldestWaitSeconds: sql<number>`coalesce(extract(epoch from now() - min(${generations.createdAt}) filter (
        where ${generations.status} = 'pending' and ${generations.runAfter} <= now())), 0)`.mapWith(Number),
    })
    .from(generations)
    .where(sql`${generations.status} in ('pending', 'processing')`);
  return {
    pending: row?.pending ?? 0,
    processing: row?.processing ?? 0,
    oldestWaitSeconds: row?.oldestWaitSeconds ?? 0,
  };
}
