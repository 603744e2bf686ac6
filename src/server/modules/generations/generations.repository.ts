import { and, count, desc, eq, inArray, isNotNull, isNull, lt, or, type Placeholder, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { columnList, prebuilt } from '../../db/named-statement';
import { liveEventNotification } from '../../bus/live-events.repository';
import type { LikenessConsent } from '../../../shared/moderation';
import {
  adminAuditLog,
  type GenerationRow,
  generations,
  type LiveEventKind,
  type UserRow,
  users,
} from '../../db/schema';

export interface LockedPayer {
  creditsHundredths: number;
  subscriptionStatus: UserRow['subscriptionStatus'];
  plan: UserRow['plan'];
  /** The user's own daily spend cap (hundredths); null follows DAILY_SPEND_CAP_CREDITS. */
  dailySpendCapHundredths: number | null;
}

// The create's statements run on every POST /api/video-generation: each is built once (`prebuilt`)
// and named, so neither Drizzle nor PostgreSQL makes it again per request. A name carries one SQL text.

const lockPayerStatement = prebuilt(
  'generation_lock_payer',
  () => sql`
    SELECT credits_hundredths AS "creditsHundredths", subscription_status AS "subscriptionStatus", plan,
           daily_spend_cap_hundredths AS "dailySpendCapHundredths"
    FROM users WHERE id = ${sql.placeholder('userId')} FOR UPDATE`,
);

/** Locks the user's row for the rest of the transaction: concurrent requests of one user queue here. */
export async function lockPayer(tx: Executor, userId: string): Promise<LockedPayer | null> {
  const [row] = await lockPayerStatement.raw<LockedPayer>(tx, { userId });
  return row ?? null;
}

const unfinishedAndPacksStatement = prebuilt(
  'generation_unfinished_and_packs',
  () => sql`
    SELECT
      (SELECT count(*)::int FROM generations
        WHERE user_id = ${sql.placeholder('userId')} AND status IN ('pending', 'processing')) AS unfinished,
      EXISTS (SELECT 1 FROM extra_generation_packs
        WHERE user_id = ${sql.placeholder('userId')} AND expires_at > ${sql.placeholder('now')}
          AND used < generations) AS "hasPackGenerations",
      (SELECT count(*)::int FROM generations WHERE status = 'pending') AS waiting`,
);

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
  const [row] = await unfinishedAndPacksStatement.raw<{
    unfinished: number;
    hasPackGenerations: boolean;
    waiting: number;
  }>(tx, { userId, now });
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

/** The id of the administrator's re-run of a failed job, if it was re-run. */
export async function findRerunOf(tx: Executor, id: string): Promise<string | null> {
  const [row] = await tx.select({ id: generations.id }).from(generations).where(eq(generations.rerunOf, id)).limit(1);
  return row?.id ?? null;
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
    | 'consent'
    | 'heldForReview'
  >
> &
  // A film's parts (film.service.ts); no other job has them. A storyboard's take or film names its board (and shot).
  // A finishing action's work (finish.service.ts) likewise.
  Partial<Pick<typeof generations.$inferInsert, 'film' | 'storyboardId' | 'shotId' | 'finish' | 'isDraft'>>;

/**
 * How far apart one user's unfinished jobs take their turns in the queue: a job made while the user
 * has unfinished ones waits one turn after their last, so a batch of theirs lets every job another
 * user makes within a turn of it go between (docs/operating.md, Making videos). About one job's time.
 */
export const FAIR_TURN_SECONDS = 60;

/** A new job's turn: now, or one turn after the user's last unfinished job (read under their row lock). */
const nextTurnOf = (userId: Placeholder | string) =>
  sql<Date>`greatest(now(), (SELECT max(q.queue_key) FROM generations q WHERE q.user_id = ${userId} AND q.status IN ('pending', 'processing')) + make_interval(secs => ${FAIR_TURN_SECONDS}))`;

/** How a new generation was paid, written by the statement that inserts it. */
export interface InsertedPayment {
  /** Credits taken from the balance, with the ledger row's reason and reference; null when none (unlimited, daily or pack). */
  charge: { hundredths: number; reason: string; reference: string } | null;
  /** The live event: 'balance' when the payment moved the balance or an allowance (it names the generation too). */
  eventKind: LiveEventKind;
}

/**
 * Inserts a new request's generation (its id made by the caller, so an allowance used for it could
 * name it first) in one statement with everything its payment and announcement write: the credits
 * taken and their ledger row, the live event and its NOTIFY (sent at commit), and the user's
 * live_version, so the user's row is written once. Call it under the user's row lock (`lockPayer`),
 * having checked the balance there: the balance check constraint refuses an overdraft anyway.
 */
export async function insertPaidGeneration(
  tx: Executor,
  row: NewPaidGeneration,
  payment: InsertedPayment,
): Promise<GenerationRow> {
  const [inserted] = await insertPaidStatement.rowsOf(tx, generations, {
    film: null,
    finish: null,
    isDraft: false,
    storyboardId: null,
    shotId: null,
    ...row,
    eventKind: payment.eventKind,
    charged: payment.charge?.hundredths ?? 0,
    reason: payment.charge?.reason ?? null,
    reference: payment.charge?.reference ?? null,
  });
  if (!inserted) throw new Error('generation insert returned no row');
  return inserted;
}

const NEW_PAID_FIELDS = [
  'id',
  'userId',
  'prompt',
  'model',
  'requestedDuration',
  'hasAudio',
  'isEconomy',
  'settings',
  'inputs',
  'endImage',
  'referenceImages',
  'progressStage',
  'creditsUsedHundredths',
  'providerCostMicroUsd',
  'paidWith',
  'parentId',
  'groupId',
  'extension',
  'consent',
  'heldForReview',
  'film',
  'finish',
  'isDraft',
  'storyboardId',
  'shotId',
] as const satisfies readonly (keyof NewPaidGeneration)[];

const insertPaidStatement = prebuilt('generation_insert_paid', (tx) => {
  const values = Object.fromEntries(NEW_PAID_FIELDS.map((field) => [field, sql.placeholder(field)]));
  const insert = tx
    .insert(generations)
    .values({
      ...(values as Record<(typeof NEW_PAID_FIELDS)[number], Placeholder>),
      queueKey: nextTurnOf(sql.placeholder('userId')),
    })
    .returning();
  const charged = sql`${sql.placeholder('charged')}::int`;
  return sql`
    WITH g AS (${insert.getSQL()}),
    e AS (
      INSERT INTO live_events (user_id, kind, generation_id)
      SELECT g.user_id, ${sql.placeholder('eventKind')}::text, g.id FROM g
      RETURNING id, user_id, kind, generation_id
    ), u AS (
      UPDATE users
      SET credits_hundredths = users.credits_hundredths - ${charged},
          -- Given credits (the sign-up credit, grants) are spent first (money/ledger.service.ts).
          given_credits_hundredths = users.given_credits_hundredths - least(users.given_credits_hundredths, ${charged}),
          credits_used_hundredths = users.credits_used_hundredths + ${charged},
          updated_at = CASE WHEN ${charged} > 0 THEN now() ELSE users.updated_at END,
          live_version = greatest(users.live_version, e.id)
      FROM e WHERE users.id = e.user_id
      RETURNING users.id, users.credits_hundredths, users.given_credits_hundredths
    ), l AS (
      -- Every part of one statement reads the rows as they were before it: the subquery is the given part before the charge.
      INSERT INTO credit_ledger (user_id, delta_hundredths, balance_after_hundredths, given_delta_hundredths, kind, actor, reason, reference)
      SELECT u.id, -${charged}, u.credits_hundredths,
             u.given_credits_hundredths - (SELECT before.given_credits_hundredths FROM users before WHERE before.id = u.id),
             'charge', 'system', ${sql.placeholder('reason')}::text, ${sql.placeholder('reference')}::text
      FROM u WHERE ${charged} > 0
    )
    SELECT ${columnList(generations, 'g')}, ${liveEventNotification} FROM g CROSS JOIN e`;
});

/** The takes and films of a user's storyboards, newest first. */
export function listForStoryboards(tx: Executor, userId: string, storyboardIds: string[]): Promise<GenerationRow[]> {
  if (storyboardIds.length === 0) return Promise.resolve([]);
  return tx
    .select()
    .from(generations)
    .where(and(eq(generations.userId, userId), inArray(generations.storyboardId, storyboardIds)))
    .orderBy(desc(generations.createdAt), desc(generations.id));
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

/**
 * The audit's row of a likeness consent (issue 43): who confirmed which words for which uploads and
 * jobs, in the create's transaction. The actor is the user themself.
 */
export async function recordConsent(
  tx: Executor,
  entry: { userId: string; generationIds: string[]; consent: LikenessConsent },
): Promise<void> {
  const after = JSON.stringify({ generationIds: entry.generationIds, ...entry.consent });
  await tx.execute(sql`
    INSERT INTO ${adminAuditLog} (actor, actor_user_id, action, target_user_id, target_email, after)
    SELECT email, id, 'likeness_consent', id, email, ${after}::jsonb FROM ${users} WHERE id = ${entry.userId}`);
}
