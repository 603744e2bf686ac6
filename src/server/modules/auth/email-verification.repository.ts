import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { emailVerificationTokens } from '../../db/schema';

export async function insertVerificationToken(
  tx: Executor,
  data: { id: string; userId: string; email: string; expiresAt: Date; purpose?: 'verify' | 'change' },
): Promise<void> {
  await tx.insert(emailVerificationTokens).values(data);
}

/** How many links were made for the user since `since` (a cap on mails per account). */
export async function countRecentVerificationTokens(tx: Executor, userId: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(emailVerificationTokens)
    .where(and(eq(emailVerificationTokens.userId, userId), gt(emailVerificationTokens.createdAt, since)));
  return row?.n ?? 0;
}

/** Marks a live, unused token used and answers its user and address; null when unknown, used or expired. */
export async function useVerificationToken(
  tx: Executor,
  id: string,
): Promise<{ userId: string; email: string; purpose: 'verify' | 'change' } | null> {
  const [row] = await tx
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.id, id),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({
      userId: emailVerificationTokens.userId,
      email: emailVerificationTokens.email,
      purpose: emailVerificationTokens.purpose,
    });
  return row ?? null;
}

/** Every other link of the user stops working once the email is proven. */
export async function expireUserVerificationTokens(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
}

export async function deleteOldVerificationTokens(tx: Executor, before: Date): Promise<void> {
  await tx
    .delete(emailVerificationTokens)
    .where(or(lt(emailVerificationTokens.expiresAt, before), lt(emailVerificationTokens.createdAt, before)));
}

/** The user's unused links of one purpose stop working (a proven address; a new or cancelled email change). */
export async function expireUserTokensOfPurpose(
  tx: Executor,
  userId: string,
  purpose: 'verify' | 'change',
): Promise<void> {
  await tx
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        eq(emailVerificationTokens.purpose, purpose),
        isNull(emailVerificationTokens.usedAt),
      ),
    );
}

/** The newest live email-change link: the address waiting to be confirmed. */
export async function findPendingEmailChange(
  tx: Executor,
  userId: string,
): Promise<{ email: string; expiresAt: Date } | null> {
  const [row] = await tx
    .select({ email: emailVerificationTokens.email, expiresAt: emailVerificationTokens.expiresAt })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        eq(emailVerificationTokens.purpose, 'change'),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailVerificationTokens.createdAt))
    .limit(1);
  return row ?? null;
}
