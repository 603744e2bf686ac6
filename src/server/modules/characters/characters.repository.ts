import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type CharacterRow, characters } from '../../db/schema';

export function listForUser(tx: Executor, userId: string, limit: number): Promise<CharacterRow[]> {
  return tx
    .select()
    .from(characters)
    .where(eq(characters.userId, userId))
    .orderBy(desc(characters.createdAt), desc(characters.id))
    .limit(limit);
}

export async function countForUser(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(characters).where(eq(characters.userId, userId));
  return row?.n ?? 0;
}

export async function findForUser(tx: Executor, userId: string, id: string): Promise<CharacterRow | null> {
  const [row] = await tx
    .select()
    .from(characters)
    .where(and(eq(characters.id, id), eq(characters.userId, userId)));
  return row ?? null;
}

export async function insert(tx: Executor, row: typeof characters.$inferInsert): Promise<CharacterRow> {
  const [inserted] = await tx.insert(characters).values(row).returning();
  if (!inserted) throw new Error('character insert returned no row');
  return inserted;
}

export async function update(
  tx: Executor,
  userId: string,
  id: string,
  fields: { name: string; description: string },
): Promise<CharacterRow | null> {
  const [row] = await tx
    .update(characters)
    .set(fields)
    .where(and(eq(characters.id, id), eq(characters.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteForUser(tx: Executor, userId: string, id: string): Promise<CharacterRow | null> {
  const [row] = await tx
    .delete(characters)
    .where(and(eq(characters.id, id), eq(characters.userId, userId)))
    .returning();
  return row ?? null;
}
