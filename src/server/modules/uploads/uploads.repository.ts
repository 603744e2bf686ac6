import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type UploadRow, uploads } from '../../db/schema';

/** Advisory lock class of one user's upload reservations (sign-in attempts use 727002 and 727003). */
const UPLOAD_RESERVATIONS_LOCK = 727_004;

/** Serialises reserving uploads for one user until the caller's transaction ends (count, then insert). */
export async function lockUserReservations(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${UPLOAD_RESERVATIONS_LOCK}, hashtext(${userId}))`);
}

export async function insertUpload(tx: Executor, row: typeof uploads.$inferInsert): Promise<UploadRow> {
  const [inserted] = await tx.insert(uploads).values(row).returning();
  if (!inserted) throw new Error('upload insert returned no row');
  return inserted;
}

/** A user's uploads still waiting for their file that were reserved after `since`: how many, and the oldest's time. */
export async function countPendingSince(
  tx: Executor,
  userId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<Date | null>`min(${uploads.createdAt})`.mapWith(uploads.createdAt),
    })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), eq(uploads.status, 'pending'), gt(uploads.createdAt, since)));
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}

/** A reserved upload whose link was not used yet, or null. */
export async function findPendingUpload(tx: Executor, id: string): Promise<UploadRow | null> {
  const [row] = await tx
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.status, 'pending')))
    .limit(1);
  return row ?? null;
}

/** Claims a pending upload for receiving; null when it is absent or its link was already used. */
export async function claimPendingUpload(tx: Executor, id: string): Promise<UploadRow | null> {
  const [row] = await tx
    .update(uploads)
    .set({ status: 'receiving' })
    .where(and(eq(uploads.id, id), eq(uploads.status, 'pending')))
    .returning();
  return row ?? null;
}

/** Marks an upload complete; false when its row is gone (swept or deleted meanwhile). */
export async function completeUpload(
  tx: Executor,
  id: string,
  fields: {
    kind: NonNullable<UploadRow['kind']>;
    contentType: string;
    sizeBytes: number;
    completedAt: Date;
    faces: number | null;
    flagged: UploadRow['flagged'];
  },
): Promise<boolean> {
  const rows = await tx
    .update(uploads)
    .set({ ...fields, status: 'completed' })
    .where(and(eq(uploads.id, id), inArray(uploads.status, ['pending', 'receiving'])))
    .returning({ id: uploads.id });
  return rows.length > 0;
}

export async function deleteUpload(tx: Executor, id: string): Promise<void> {
  await tx.delete(uploads).where(eq(uploads.id, id));
}

export async function findUserUpload(tx: Executor, userId: string, id: string): Promise<UploadRow | null> {
  const [row] = await tx
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Those of the ids that are this user's uploads, in no particular order. */
export async function findUserUploads(tx: Executor, userId: string, ids: readonly string[]): Promise<UploadRow[]> {
  return tx
    .select()
    .from(uploads)
    .where(and(inArray(uploads.id, [...new Set(ids)]), eq(uploads.userId, userId)));
}

export async function findExpired(
  tx: Executor,
  now: Date,
  userId: string | undefined,
  limit: number,
): Promise<UploadRow[]> {
  const expired = lt(uploads.expiresAt, now);
  return tx
    .select()
    .from(uploads)
    .where(userId ? and(expired, eq(uploads.userId, userId)) : expired)
    .limit(limit);
}

/** Uploads still receiving that were reserved before `before`: their sender is long gone. */
export async function findStaleReceiving(tx: Executor, before: Date, limit: number): Promise<UploadRow[]> {
  return tx
    .select()
    .from(uploads)
    .where(and(eq(uploads.status, 'receiving'), lt(uploads.createdAt, before)))
    .limit(limit);
}

/** Records what the face detector found in an upload looked at after it completed (an older upload). */
export async function setFaces(tx: Executor, id: string, faces: number): Promise<void> {
  await tx.update(uploads).set({ faces }).where(eq(uploads.id, id));
}
