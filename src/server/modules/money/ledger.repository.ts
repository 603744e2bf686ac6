import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { creditLedger, type CreditLedgerRow, users } from '../../db/schema';

export interface LockedBalance {
  creditsHundredths: number;
  creditsUsedHundredths: number;
  /** The part of the balance that was given, not bought. */
  givenCreditsHundredths: number;
}

/** Locks the user's row for the rest of the transaction and answers its balance. */
export async function lockBalance(tx: Executor, userId: string): Promise<LockedBalance | null> {
  const [row] = await tx
    .select({
      creditsHundredths: users.creditsHundredths,
      creditsUsedHundredths: users.creditsUsedHundredths,
      givenCreditsHundredths: users.givenCreditsHundredths,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export async function writeBalance(
  tx: Executor,
  userId: string,
  change: { balance: number; given: number; addedDelta: number; usedDelta: number },
): Promise<void> {
  await tx
    .update(users)
    .set({
      creditsHundredths: change.balance,
      givenCreditsHundredths: change.given,
      creditsAddedHundredths: sql`${users.creditsAddedHundredths} + ${change.addedDelta}`,
      creditsUsedHundredths: sql`${users.creditsUsedHundredths} + ${change.usedDelta}`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
}

/**
 * What a user's charges since `since` came to, in hundredths, leaving out charges that were given back
 * (a generation's refund row is referenced `refund:<the charge's reference>`). Uses the ledger's
 * (user, created) index; read under the user's row lock, it sees every committed charge.
 */
export async function chargedSince(tx: Executor, userId: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ spent: sql<number>`coalesce(sum(-${creditLedger.deltaHundredths}), 0)`.mapWith(Number) })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.userId, userId),
        gte(creditLedger.createdAt, since),
        eq(creditLedger.kind, 'charge'),
        sql`NOT EXISTS (SELECT 1 FROM credit_ledger r WHERE r.reference = 'refund:' || ${creditLedger.reference})`,
      ),
    );
  return row?.spent ?? 0;
}

/** The given part of the charge a ledger reference names (0 when there is none, or it predates the split). */
export async function givenPartOfCharge(tx: Executor, reference: string): Promise<number> {
  const [row] = await tx
    .select({ given: creditLedger.givenDeltaHundredths })
    .from(creditLedger)
    .where(and(eq(creditLedger.reference, reference), eq(creditLedger.kind, 'charge')));
  return row ? -row.given : 0;
}

export async function insertLedgerRow(tx: Executor, row: typeof creditLedger.$inferInsert): Promise<CreditLedgerRow> {
  const [inserted] = await tx.insert(creditLedger).values(row).returning();
  if (!inserted) throw new Error('ledger insert returned no row');
  return inserted;
}

export async function listLedger(tx: Executor, userId: string): Promise<CreditLedgerRow[]> {
  return tx.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.createdAt);
}
