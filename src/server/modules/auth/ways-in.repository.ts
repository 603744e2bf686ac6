import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { RemovedWaysIn, SecurityEventKind } from '../../../shared/account-security';
import type { Executor } from '../../db/client';
import {
  type AccountSecurityEventRow,
  accountSecurityEvents,
  emailVerificationTokens,
  passwordResetTokens,
} from '../../db/schema';

/** Stops the user's unused password-reset links; answers how many were still live. */
export async function endResetLinks(tx: Executor, userId: string): Promise<number> {
  const rows = await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .returning({ expiresAt: passwordResetTokens.expiresAt });
  return rows.filter((row) => row.expiresAt.getTime() > Date.now()).length;
}

/** Stops the user's unused email links (every purpose, or only a pending change); answers how many were still live. */
export async function endEmailLinks(tx: Executor, userId: string, which: 'all' | 'change'): Promise<number> {
  const rows = await tx
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        isNull(emailVerificationTokens.usedAt),
        which === 'change' ? eq(emailVerificationTokens.purpose, 'change') : undefined,
      ),
    )
    .returning({ expiresAt: emailVerificationTokens.expiresAt });
  return rows.filter((row) => row.expiresAt.getTime() > Date.now()).length;
}

export async function insertSecurityEvent(
  tx: Executor,
  data: { userId: string; kind: SecurityEventKind; via: string | null; removed: RemovedWaysIn },
): Promise<void> {
  await tx.insert(accountSecurityEvents).values(data);
}

/** The user's latest events, newest first. */
export function listSecurityEvents(tx: Executor, userId: string, limit: number): Promise<AccountSecurityEventRow[]> {
  return tx
    .select()
    .from(accountSecurityEvents)
    .where(eq(accountSecurityEvents.userId, userId))
    .orderBy(desc(accountSecurityEvents.createdAt))
    .limit(limit);
}
