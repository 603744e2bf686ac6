import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type IdentityProvider, userIdentities, type UserIdentityRow } from '../../db/schema';

export async function findIdentity(
  tx: Executor,
  provider: IdentityProvider,
  subject: string,
): Promise<UserIdentityRow | null> {
  const [row] = await tx
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

/** Links an identity; answers false when the (provider, subject) pair is already linked (a race). */
export async function insertIdentity(
  tx: Executor,
  data: { provider: IdentityProvider; subject: string; userId: string; email: string | null },
): Promise<boolean> {
  const rows = await tx.insert(userIdentities).values(data).onConflictDoNothing().returning({ id: userIdentities.id });
  return rows.length > 0;
}

export function listIdentities(tx: Executor, userId: string): Promise<UserIdentityRow[]> {
  return tx
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.createdAt));
}

export async function countIdentities(tx: Executor, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(userIdentities).where(eq(userIdentities.userId, userId));
  return row?.n ?? 0;
}

export async function deleteIdentity(tx: Executor, userId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(userIdentities)
    .where(and(eq(userIdentities.id, id), eq(userIdentities.userId, userId)))
    .returning({ id: userIdentities.id });
  return rows.length > 0;
}

/** Unlinks every identity of the user; answers the removed rows. */
export async function deleteUserIdentities(tx: Executor, userId: string): Promise<UserIdentityRow[]> {
  return tx.delete(userIdentities).where(eq(userIdentities.userId, userId)).returning();
}
