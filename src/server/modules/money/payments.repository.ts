import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type PaymentRow, payments, stripeEvents, type UserRow, users } from '../../db/schema';

/** Records a payment as fulfilled; null when it already was (the payment id is the primary key). */
export async function insertPayment(tx: Executor, row: typeof payments.$inferInsert): Promise<PaymentRow | null> {
  const [inserted] = await tx.insert(payments).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findPayment(tx: Executor, id: string): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id));
  return row ?? null;
}

/** A payment, locked until the end of the transaction (refunds of one payment apply one at a time). */
export async function lockPayment(tx: Executor, id: string): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row ?? null;
}

export async function setRefunded(tx: Executor, id: string, refundedCents: number): Promise<void> {
  await tx.update(payments).set({ refundedCents }).where(eq(payments.id, id));
}

/** Marks a webhook event handled; false when it already was. Blocks while another transaction holds the same id. */
export async function claimEvent(tx: Executor, event: { id: string; type: string }): Promise<boolean> {
  const rows = await tx.insert(stripeEvents).values(event).onConflictDoNothing().returning({ id: stripeEvents.id });
  return rows.length > 0;
}

/**
 * The payer's current row. Money has its own lookup: the users module pays its welcome credits
 * through the ledger, so money importing users back would make the two one tangle.
 */
export async function findUserById(tx: Executor, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUserByCustomer(tx: Executor, customerId: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.stripeCustomerId, customerId));
  return row ?? null;
}

export async function updateUserStripe(
  tx: Executor,
  userId: string,
  change: Partial<Pick<UserRow, 'stripeCustomerId' | 'stripeSubscriptionId' | 'subscriptionStatus'>>,
): Promise<void> {
  await tx.update(users).set(change).where(eq(users.id, userId));
}

/** The user's fulfilled payments, newest first. */
export function listUserPayments(tx: Executor, userId: string, limit: number): Promise<PaymentRow[]> {
  return tx
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

export async function setReceiptUrl(tx: Executor, id: string, receiptUrl: string): Promise<void> {
  await tx.update(payments).set({ receiptUrl }).where(eq(payments.id, id));
}
