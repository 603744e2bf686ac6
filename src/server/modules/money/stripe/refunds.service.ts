import { EXTRA_PACKS, type ExtraPackName } from '../../../../shared/money/plans';
import { CREDIT_PRICE_CENTS } from '../../../../shared/money/payments';
import type { Executor } from '../../../db/client';
import { revokePackGenerations } from '../allowances.service';
import { takeCreditsUpTo } from '../ledger.service';
import * as repo from '../payments.repository';

/** How much of a payment is now refunded: Stripe's cumulative total (a charge), or more on top of it (a lost dispute). */
export type Refunded = { totalCents: number } | { moreCents: number };

/**
 * Stripe refunded some or all of a payment (a charge's amount_refunded is cumulative, so events
 * may repeat or arrive out of order), or a dispute over it was lost: takes back the matching share
 * of what it bought, in the caller's transaction. Credits already spent cannot be taken back, so
 * the claw-back stops at the balance (the ledger row says how much was taken); a pack loses the
 * matching share of its generations, never below what was used. Answers why nothing changed, or null.
 */
export async function refundPayment(tx: Executor, paymentId: string, change: Refunded): Promise<string | null> {
  const payment = await repo.lockPayment(tx, paymentId);
  if (!payment) return 'No fulfilled payment has this id.';
  const target = 'totalCents' in change ? change.totalCents : payment.refundedCents + change.moreCents;
  const refunded = Math.min(payment.amountCents, Math.max(0, Math.trunc(target)));
  if (refunded <= payment.refundedCents) return 'This refund was already applied.';
  await repo.setRefunded(tx, payment.id, refunded);
  const reference = `refund:${payment.id}:${refunded}`;
  if (payment.kind === 'credits') {
    // Credits cost CREDIT_PRICE_CENTS each and balances are in hundredths of a credit.
    await takeCreditsUpTo(tx, {
      userId: payment.userId,
      hundredths: Math.round(((refunded - payment.refundedCents) * 100) / CREDIT_PRICE_CENTS),
      kind: 'purchase_refund',
      actor: 'stripe',
      reason: `Payment refunded: $${(refunded / 100).toFixed(2)} of $${(payment.amountCents / 100).toFixed(2)}`,
      reference,
    });
    return null;
  }
  const bought =
    payment.pack && Object.hasOwn(EXTRA_PACKS, payment.pack)
      ? EXTRA_PACKS[payment.pack as ExtraPackName].generations
      : 0;
  const share = (cents: number) => Math.ceil((bought * cents) / payment.amountCents);
  await revokePackGenerations(tx, payment.id, share(refunded) - share(payment.refundedCents), reference);
  return null;
}
