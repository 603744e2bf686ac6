import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { creditLedger, type CreditLedgerRow, users } from '../../db/schema';

export interface LockedBalance {
  creditsHundredths: number;
  creditsUsedHundredths: number;
}

/** Locks the user's row for the rest of the transaction and answers its balance. */
export async function lockBalance(tx: Executor, userId: string): Promise<LockedBalance | null> {
  const [row] = await tx
    .select({ creditsHundredths: users.creditsHundredths, creditsUsedHundredths: users.creditsUsedHundredths })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export async function writeBalance(
  tx: Executor,
  userId: string,
  change: { balance: number; addedDelta: number; usedDelta: number },
): Promise<void> {
  await tx
    .update(users)
    .set({
      creditsHundredths: change.balance,
      creditsAddedHundredths: sql`${users.creditsAddedHundredths} + ${change.addedDelta}`,
      creditsUsedHundredths: sql`${users.creditsUsedHundredths} + ${change.usedDelta}`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
}

export async function insertLedgerRow(tx: Executor, row: typeof creditLedger.$inferInsert): Promise<CreditLedgerRow> {
  const [inserted] = await tx.insert(creditLedger).values(row).returning();
  if (!inserted) throw new Error('ledger insert returned no row');
  return inserted;
}

export async function listLedger(tx: Executor, userId: string): Promise<CreditLedgerRow[]> {
  return tx.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.createdAt);
}
