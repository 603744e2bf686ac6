import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type UploadRow, uploads } from '../../db/schema';

export async function insertUpload(tx: Executor, row: typeof uploads.$inferInsert): Promise<UploadRow> {
  const [inserted] = await tx.insert(uploads).values(row).returning();
  if (!inserted) throw new Error('upload insert returned no row');
  return inserted;
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

export async function completeUpload(
  tx: Executor,
  id: string,
  fields: { kind: NonNullable<UploadRow['kind']>; contentType: string; sizeBytes: number; completedAt: Date },
): Promise<void> {
  await tx.update(uploads).set({ ...fields, status: 'completed' }).where(eq(uploads.id, id));
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

export async function findExpired(tx: Executor, now: Date, userId: string | undefined, limit: number): Promise<UploadRow[]> {
  const expired = lt(uploads.expiresAt, now);
  return tx
    .select()
    .from(uploads)
    .where(userId ? and(expired, eq(uploads.userId, userId)) : expired)
    .limit(limit);
}

