import { and, asc, count, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { ReportReason } from '../../../shared/safety';
import type { Executor } from '../../db/client';
import {
  adminAuditLog,
  blockedMediaHashes,
  type GenerationRow,
  generations,
  type SafetyReportRow,
  safetyReports,
  sessions,
  users,
} from '../../db/schema';

export async function insertReport(tx: Executor, row: typeof safetyReports.$inferInsert): Promise<SafetyReportRow> {
  const [inserted] = await tx.insert(safetyReports).values(row).returning();
  if (!inserted) throw new Error('the report was not stored');
  return inserted;
}

export async function findReport(tx: Executor, id: string): Promise<SafetyReportRow | null> {
  const [row] = await tx.select().from(safetyReports).where(eq(safetyReports.id, id));
  return row ?? null;
}

export async function lockReport(tx: Executor, id: string): Promise<SafetyReportRow | null> {
  const [row] = await tx.select().from(safetyReports).where(eq(safetyReports.id, id)).for('update');
  return row ?? null;
}

/** Whether a video has an open report other than this one (its administrators were told already). */
export async function hasOtherOpenReport(tx: Executor, generationId: string, exceptId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: safetyReports.id })
    .from(safetyReports)
    .where(
      and(
        eq(safetyReports.generationId, generationId),
        eq(safetyReports.status, 'open'),
        eq(safetyReports.kind, 'report'),
        sql`${safetyReports.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The administrators' email addresses (for a report's notice). */
export async function administratorEmails(tx: Executor): Promise<string[]> {
  const rows = await tx.select({ email: users.email }).from(users).where(eq(users.isAdmin, true));
  return rows.map((row) => row.email);
}

/** Open reports and appeals, the nearest deadline first. */
export function openReports(tx: Executor, limit: number): Promise<SafetyReportRow[]> {
  return tx
    .select()
    .from(safetyReports)
    .where(eq(safetyReports.status, 'open'))
    .orderBy(asc(safetyReports.dueAt))
    .limit(limit);
}

/** Decides every open report about these videos (a takedown answers them all), and answers them. */
export function decideReportsAbout(
  tx: Executor,
  generationIds: string[],
  decision: { status: 'taken_down' | 'dismissed'; by: string; note: string; kind?: 'report' | 'appeal' },
): Promise<SafetyReportRow[]> {
  if (generationIds.length === 0) return Promise.resolve([]);
  return tx
    .update(safetyReports)
    .set({ status: decision.status, decidedAt: sql`now()`, decidedBy: decision.by, decisionNote: decision.note })
    .where(
      and(
        inArray(safetyReports.generationId, generationIds),
        eq(safetyReports.status, 'open'),
        eq(safetyReports.kind, decision.kind ?? 'report'),
      ),
    )
    .returning();
}

export async function decideReport(
  tx: Executor,
  id: string,
  decision: { status: 'taken_down' | 'dismissed'; by: string; note: string },
): Promise<SafetyReportRow | null> {
  const [row] = await tx
    .update(safetyReports)
    .set({ status: decision.status, decidedAt: sql`now()`, decidedBy: decision.by, decisionNote: decision.note })
    .where(and(eq(safetyReports.id, id), eq(safetyReports.status, 'open')))
    .returning();
  return row ?? null;
}

/** A video and every video made from it (extends, remixes, continuations: by `parent_id`), parents first. */
export async function videoFamily(tx: Executor, id: string): Promise<GenerationRow[]> {
  const family = await tx.select().from(generations).where(eq(generations.id, id));
  let parents = family.map((row) => row.id);
  for (let depth = 0; parents.length > 0 && depth < 50; depth += 1) {
    const seen = new Set(family.map((row) => row.id));
    const children = (await tx.select().from(generations).where(inArray(generations.parentId, parents))).filter(
      (row) => !seen.has(row.id),
    );
    family.push(...children);
    parents = children.map((row) => row.id);
  }
  return family;
}

export async function findGeneration(tx: Executor, id: string): Promise<GenerationRow | null> {
  const [row] = await tx.select().from(generations).where(eq(generations.id, id));
  return row ?? null;
}

/** The finished video whose stored video or poster file is this key. */
export async function findGenerationByFile(tx: Executor, key: string): Promise<GenerationRow | null> {
  const [row] = await tx
    .select()
    .from(generations)
    .where(sql`${generations.outputKey} = ${key} OR ${generations.posterKey} = ${key}`);
  return row ?? null;
}

export async function insertHashes(tx: Executor, hashes: string[], reportId: string | null): Promise<void> {
  if (hashes.length === 0) return;
  await tx.insert(blockedMediaHashes).values(hashes.map((hash) => ({ hash, reportId })));
}

export async function allHashes(tx: Executor): Promise<string[]> {
  const rows = await tx.select({ hash: blockedMediaHashes.hash }).from(blockedMediaHashes);
  return rows.map((row) => row.hash);
}

export interface OwnerFacts {
  id: string;
  email: string;
  strikes: number;
  suspendedAt: Date | null;
  videos: number;
  reports: number;
  takenDown: number;
}

/** What the queue shows of each owner: their strikes and suspension, videos now, reports and takedowns. */
export async function ownerFacts(tx: Executor, ids: string[]): Promise<Map<string, OwnerFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: users.id,
      email: users.email,
      strikes: users.strikes,
      suspendedAt: users.suspendedAt,
      // Qualified by hand: inside a subquery an unqualified "id" would be the subquery's own table's.
      videos: sql<number>`(SELECT count(*)::int FROM generations g WHERE g.user_id = "users"."id")`,
      reports: sql<number>`(SELECT count(*)::int FROM safety_reports r WHERE r.owner_user_id = "users"."id" AND r.kind = 'report')`,
      takenDown: sql<number>`(SELECT count(DISTINCT r.generation_id)::int FROM safety_reports r WHERE r.owner_user_id = "users"."id" AND r.status = 'taken_down')`,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Reports per reason, all time. */
export async function reportsByReason(tx: Executor): Promise<{ reason: ReportReason; count: number }[]> {
  return tx
    .select({ reason: safetyReports.reason, count: count() })
    .from(safetyReports)
    .where(eq(safetyReports.kind, 'report'))
    .groupBy(safetyReports.reason)
    .orderBy(safetyReports.reason);
}

/** How many reports and appeals were decided, and the median hours from report to decision. */
export async function decisionFigures(tx: Executor): Promise<{ decided: number; medianHours: number | null }> {
  const [row] = await tx
    .select({
      decided: count(),
      medianHours: sql<
        number | null
      >`percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ${safetyReports.decidedAt} - ${safetyReports.createdAt}) / 3600)`,
    })
    .from(safetyReports)
    .where(isNotNull(safetyReports.decidedAt));
  return { decided: row?.decided ?? 0, medianHours: row?.medianHours === null ? null : Number(row?.medianHours) };
}

/** Open reports and appeals, and jobs screening held: everything waiting for an administrator. */
export async function countOpenItems(tx: Executor): Promise<number> {
  const [reports] = await tx.select({ n: count() }).from(safetyReports).where(eq(safetyReports.status, 'open'));
  const [held] = await tx
    .select({ n: count() })
    .from(generations)
    .where(
      and(
        inArray(generations.status, ['pending', 'processing']),
        sql`jsonb_typeof(${generations.heldForReview}) = 'object'`,
      ),
    );
  return (reports?.n ?? 0) + (held?.n ?? 0);
}

/**
 * The owner's takedowns with the appeal each has, newest first: one per administrator's decision
 * (the reports one takedown closed, about the video or what was made from it, share its decision
 * time; the earliest report stands for them, and an appeal names its video).
 */
export async function takedownsOf(
  tx: Executor,
  userId: string,
): Promise<{ report: SafetyReportRow; appeal: SafetyReportRow | null }[]> {
  const decided = await tx
    .select()
    .from(safetyReports)
    .where(
      and(
        eq(safetyReports.ownerUserId, userId),
        eq(safetyReports.kind, 'report'),
        eq(safetyReports.status, 'taken_down'),
      ),
    )
    .orderBy(sql`${safetyReports.decidedAt} DESC, ${safetyReports.createdAt} ASC`)
    .limit(50);
  const perDecision = new Map<number, SafetyReportRow>();
  for (const row of decided) {
    const at = row.decidedAt?.getTime() ?? 0;
    if (!perDecision.has(at)) perDecision.set(at, row);
  }
  const shown = [...perDecision.values()];
  if (shown.length === 0) return [];
  const appeals = await tx
    .select()
    .from(safetyReports)
    .where(
      and(
        eq(safetyReports.kind, 'appeal'),
        inArray(
          safetyReports.generationId,
          shown.map((row) => row.generationId),
        ),
      ),
    );
  const byVideo = new Map(appeals.map((appeal) => [appeal.generationId, appeal]));
  return shown.map((report) => ({ report, appeal: byVideo.get(report.generationId) ?? null }));
}

/** The appeal of a takedown of this video, if its owner made one (one per video). */
export async function findAppealAbout(tx: Executor, generationId: string): Promise<SafetyReportRow | null> {
  const [row] = await tx
    .select()
    .from(safetyReports)
    .where(and(eq(safetyReports.kind, 'appeal'), eq(safetyReports.generationId, generationId)));
  return row ?? null;
}

export async function insertAudit(tx: Executor, row: typeof adminAuditLog.$inferInsert): Promise<void> {
  await tx.insert(adminAuditLog).values(row);
}

/** Adds a strike; answers the user's strikes after it (null: no such user). */
export async function addStrike(tx: Executor, userId: string): Promise<{ email: string; strikes: number } | null> {
  const [row] = await tx
    .update(users)
    .set({ strikes: sql`${users.strikes} + 1` })
    .where(eq(users.id, userId))
    .returning({ email: users.email, strikes: users.strikes });
  return row ?? null;
}

/** Takes a strike back (a granted appeal), never below zero. */
export async function removeStrike(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ strikes: sql`greatest(${users.strikes} - 1, 0)` })
    .where(eq(users.id, userId));
}

export async function setSuspended(
  tx: Executor,
  userId: string,
  suspended: boolean,
): Promise<{ email: string; isAdmin: boolean } | null> {
  const [row] = await tx
    .update(users)
    .set({ suspendedAt: suspended ? sql`now()` : null })
    .where(eq(users.id, userId))
    .returning({ email: users.email, isAdmin: users.isAdmin });
  return row ?? null;
}

/** Decided reports older than the audit keeps them. */
export async function deleteDecidedBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx
    .delete(safetyReports)
    .where(and(isNotNull(safetyReports.decidedAt), lt(safetyReports.decidedAt, before)))
    .returning({ id: safetyReports.id });
  return rows.length;
}

/** Reports sent in the last `windowMs` from this address or this account: how many, and the oldest's time. */
export async function recentReports(
  tx: Executor,
  by: { address: string; userId: string | null },
  now: Date,
  windowMs: number,
): Promise<{ count: number; oldest: Date }> {
  const since = new Date(now.getTime() - windowMs);
  const from = by.userId
    ? sql`(${safetyReports.reporterAddress} = ${by.address} OR ${safetyReports.reporterUserId} = ${by.userId})`
    : sql`${safetyReports.reporterAddress} = ${by.address}`;
  const [row] = await tx
    .select({ n: count(), oldest: sql<Date | string | null>`min(${safetyReports.createdAt})` })
    .from(safetyReports)
    .where(and(eq(safetyReports.kind, 'report'), gt(safetyReports.createdAt, since), from));
  const oldest = row?.oldest ? new Date(row.oldest) : now;
  return { count: row?.n ?? 0, oldest };
}

export function generationsByIds(tx: Executor, ids: string[]): Promise<GenerationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.select().from(generations).where(inArray(generations.id, ids));
}

/** Jobs held for review by screening (waiting to be rendered, or finished and unseen), oldest first. */
export function heldGenerations(tx: Executor, limit: number): Promise<GenerationRow[]> {
  return tx
    .select()
    .from(generations)
    .where(
      and(
        inArray(generations.status, ['pending', 'processing']),
        sql`jsonb_typeof(${generations.heldForReview}) = 'object'`,
      ),
    )
    .orderBy(generations.createdAt)
    .limit(limit);
}

/** Ends every session of a suspended user. */
export async function endSessions(tx: Executor, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}

const REPORTER_LOCK = 727_044;

/** One report at a time per reporter's address (in the caller's transaction): a burst cannot all pass the limit. */
export async function lockReporter(tx: Executor, address: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${REPORTER_LOCK}, hashtext(${address}))`);
}
