import { and, desc, eq, gte, ilike, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { adminAuditLog, type GenerationRow, generations, users } from '../../db/schema';

/** A job with its owner's email and its re-run (a failed job is re-run once), as the console lists it. */
export type JobWithOwner = GenerationRow & { userEmail: string; rerunId: string | null };

const withOwner = {
  job: generations,
  userEmail: users.email,
  // At most one: rerun_of is unique.
  rerunId: sql<string | null>`(SELECT rerun.id FROM generations rerun WHERE rerun.rerun_of = ${generations.id})`,
};
const flatten = (rows: { job: GenerationRow; userEmail: string; rerunId: string | null }[]): JobWithOwner[] =>
  rows.map(({ job, userEmail, rerunId }) => ({ ...job, userEmail, rerunId }));

/** LIKE's own characters in a search typed by an administrator match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Jobs the filters select (part of the owner's email, a model id, a status), newest first. */
export async function listJobs(
  tx: Executor,
  filters: { user?: string; model?: string; status?: GenerationRow['status']; limit: number },
): Promise<JobWithOwner[]> {
  const where: SQL[] = [];
  if (filters.user) where.push(ilike(users.email, `%${escapeLike(filters.user)}%`));
  if (filters.model) where.push(eq(generations.model, filters.model));
  if (filters.status) where.push(eq(generations.status, filters.status));
  const rows = await tx
    .select(withOwner)
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(filters.limit);
  return flatten(rows);
}

/** Running jobs (on the queue's partial index), longest running first. */
export async function runningJobs(tx: Executor, limit: number): Promise<JobWithOwner[]> {
  const rows = await tx
    .select(withOwner)
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    // A finished video held for review is not running: it has no worker (the held list shows it).
    .where(and(eq(generations.status, 'processing'), isNotNull(generations.leaseOwner)))
    .orderBy(generations.startedAt)
    .limit(limit);
  return flatten(rows);
}

/** What a refund added to a failed job's message; failures are grouped without it. */
const REFUND_SENTENCE =
  ' (Your [0-9.,]+ credits? (was|were) refunded\\.|The (daily|extra-pack) generation it used was given back\\.)$';

/** Failed jobs made in the last `hours` by model and reason (the message without a refund's sentence), most frequent first. */
export async function failureGroups(
  tx: Executor,
  hours: number,
  limit: number,
): Promise<{ model: string; reason: string; count: number; lastAt: Date }[]> {
  // The pattern is a constant written into the statement: a bound parameter would make the grouped
  // expression and the selected one differ to PostgreSQL.
  const reason = sql<string>`coalesce(regexp_replace(${generations.errorMessage}, ${sql.raw(`'${REFUND_SENTENCE}'`)}, ''), '')`;
  const rows = await tx
    .select({
      model: generations.model,
      reason,
      count: sql<number>`count(*)`.mapWith(Number),
      lastAt: sql<Date>`max(${generations.createdAt})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(generations)
    .where(
      and(eq(generations.status, 'failed'), gte(generations.createdAt, sql`now() - make_interval(hours => ${hours})`)),
    )
    .groupBy(generations.model, reason)
    .orderBy(sql`count(*) desc`, sql`max(${generations.createdAt}) desc`)
    .limit(limit);
  return rows;
}

/** One job with its owner, locked for the rest of the transaction; null when gone. */
export async function lockJob(tx: Executor, id: string): Promise<JobWithOwner | null> {
  const [row] = await tx
    .select(withOwner)
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    .where(eq(generations.id, id))
    .for('update', { of: generations });
  return row ? { ...row.job, userEmail: row.userEmail, rerunId: row.rerunId } : null;
}

export async function findJob(tx: Executor, id: string): Promise<JobWithOwner | null> {
  const [row] = await tx
    .select(withOwner)
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    .where(eq(generations.id, id));
  return row ? { ...row.job, userEmail: row.userEmail, rerunId: row.rerunId } : null;
}

export async function insertAudit(tx: Executor, row: typeof adminAuditLog.$inferInsert): Promise<void> {
  await tx.insert(adminAuditLog).values(row);
}

/** Held for review: a hold object (a new row's absent hold may be stored as JSON null, not SQL NULL). */
const isHeld = sql`jsonb_typeof(${generations.heldForReview}) = 'object'`;

/** Jobs held for review (waiting to be rendered, or finished and not yet shown), oldest first. */
export async function heldJobs(tx: Executor, limit: number): Promise<JobWithOwner[]> {
  const rows = await tx
    .select(withOwner)
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    .where(and(inArray(generations.status, ['pending', 'processing']), isHeld))
    .orderBy(generations.createdAt)
    .limit(limit);
  return flatten(rows);
}
