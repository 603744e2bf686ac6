import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Shot } from '../../../shared/storyboards';
import type { Executor } from '../../db/client';
import { type StoryboardFilmSettings, type StoryboardRow, storyboards } from '../../db/schema';

export interface StoryboardFields {
  name: string;
  shots: Shot[];
  film: StoryboardFilmSettings;
}

/** A user's boards, the latest edited first. */
export function listForUser(tx: Executor, userId: string, limit: number): Promise<StoryboardRow[]> {
  return tx
    .select()
    .from(storyboards)
    .where(eq(storyboards.userId, userId))
    .orderBy(desc(storyboards.updatedAt), desc(storyboards.id))
    .limit(limit);
}

export async function countForUser(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(storyboards).where(eq(storyboards.userId, userId));
  return row?.n ?? 0;
}

export async function insert(tx: Executor, userId: string, fields: StoryboardFields): Promise<StoryboardRow> {
  const [row] = await tx
    .insert(storyboards)
    .values({ userId, ...fields })
    .returning();
  if (!row) throw new Error('storyboard insert returned no row');
  return row;
}

export async function findForUser(tx: Executor, userId: string, id: string): Promise<StoryboardRow | null> {
  const [row] = await tx
    .select()
    .from(storyboards)
    .where(and(eq(storyboards.id, id), eq(storyboards.userId, userId)));
  return row ?? null;
}

/** The board locked for an edit (read, check, write in one transaction). */
export async function lockForUser(tx: Executor, userId: string, id: string): Promise<StoryboardRow | null> {
  const [row] = await tx
    .select()
    .from(storyboards)
    .where(and(eq(storyboards.id, id), eq(storyboards.userId, userId)))
    .for('update');
  return row ?? null;
}

/** Writes the board's fields, moving its version by one. */
export async function update(
  tx: Executor,
  id: string,
  fields: Partial<StoryboardFields>,
  now: Date,
): Promise<StoryboardRow> {
  const [row] = await tx
    .update(storyboards)
    .set({ ...fields, version: sql`${storyboards.version} + 1`, updatedAt: now })
    .where(eq(storyboards.id, id))
    .returning();
  if (!row) throw new Error('storyboard update returned no row');
  return row;
}

export async function deleteForUser(tx: Executor, userId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(storyboards)
    .where(and(eq(storyboards.id, id), eq(storyboards.userId, userId)))
    .returning({ id: storyboards.id });
  return deleted.length > 0;
}
