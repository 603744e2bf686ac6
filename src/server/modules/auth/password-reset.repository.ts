import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { passwordResetTokens } from '../../db/schema';

export async function insertResetToken(
  tx: Executor,
  data: { id: string; userId: string; email: string; expiresAt: Date },
): Promise<void> {
  await tx.insert(passwordResetTokens).values(data);
}

/** How many links were made for the user since `since` (a cap on mails per account). */
export async function countRecentResetTokens(tx: Executor, userId: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.userId, userId), gt(passwordResetTokens.createdAt, since)));
  return row?.n ?? 0;
}

/** Marks a live, unused token used and answers its user and address; null when unknown, used or expired. One caller wins. */
export async function useResetToken(tx: Executor, id: string): Promise<{ userId: string; email: string } | null> {
  const [row] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.id, id),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId, email: passwordResetTokens.email });
  return row ?? null;
}

/** Every other link of the user stops working once one was used. */
export async function expireUserResetTokens(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function deleteOldResetTokens(tx: Executor, before: Date): Promise<void> {
  await tx
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, before), lt(passwordResetTokens.createdAt, before)));
}
