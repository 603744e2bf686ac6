import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { payments } from '../../db/schema';

/** Fulfilled payments by kind and currency: how many, and their amount in cents. */
export function paymentTotals(
  tx: Executor,
): Promise<{ kind: string; currency: string; count: number; cents: number }[]> {
  return tx
    .select({
      kind: payments.kind,
      currency: payments.currency,
      count: sql<number>`count(*)`.mapWith(Number),
      cents: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number),
    })
    .from(payments)
    .groupBy(payments.kind, payments.currency);
}
