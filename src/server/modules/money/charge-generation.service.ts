import { isSubscribed, isUnlimitedStatus, type SubscriptionStatus } from '../../../shared/auth';
import { toCredits } from '../../../shared/money/credits';
import { insufficientCreditsMessage } from '../../../shared/generations';
import type { Executor } from '../../db/client';
import type { GenerationRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { useDailyGeneration, usePackGeneration } from './allowances.service';
import { applyCreditChange } from './ledger.service';

/**
 * Whether a failed generation gives its credits back. The spec says failed generations are not
 * refunded; this is the one place to change that.
 */
export const REFUND_FAILED_GENERATIONS = false;

/** Who pays for a generation, read under their row lock in the generation's transaction. */
export interface Payer {
  creditsHundredths: number;
  subscriptionStatus: SubscriptionStatus;
}

/** 402 with the spec's sentence, before anything is written. */
export function requireAffordable(payer: Payer, priceHundredths: number): void {
  if (isUnlimitedStatus(payer.subscriptionStatus)) return;
  if (payer.creditsHundredths < priceHundredths) {
    throw new AppError(
      402,
      'insufficient_credits',
      insufficientCreditsMessage(toCredits(priceHundredths), toCredits(payer.creditsHundredths)),
    );
  }
}

export type PaidWith = 'unlimited' | 'daily' | 'pack' | 'credits';

/**
 * Pays for a generation inside the transaction that inserts it, under the user's row lock, in
 * the order of decision 006: unlimited users pay nothing; subscribers use one of today's daily
 * generations; then an extra-pack generation (the pack expiring soonest first); then credits at
 * the server's price, as one ledger row referencing the generation (so it is never charged twice).
 */
export async function payForGeneration(
  tx: Executor,
  payer: Payer,
  charge: { userId: string; generationId: string; priceHundredths: number; now: Date; reason?: string },
): Promise<{ paidWith: PaidWith; creditsHundredths: number }> {
  if (isUnlimitedStatus(payer.subscriptionStatus)) return { paidWith: 'unlimited', creditsHundredths: 0 };
  const reference = `generation:${charge.generationId}`;
  if (isSubscribed(payer.subscriptionStatus) && (await useDailyGeneration(tx, charge.userId, charge.now, reference))) {
    return { paidWith: 'daily', creditsHundredths: 0 };
  }
  if (await usePackGeneration(tx, charge.userId, charge.now, reference))
    return { paidWith: 'pack', creditsHundredths: 0 };
  requireAffordable(payer, charge.priceHundredths);
  if (charge.priceHundredths > 0) {
    await applyCreditChange(tx, {
      userId: charge.userId,
      deltaHundredths: -charge.priceHundredths,
      kind: 'charge',
      actor: 'system',
      reason: charge.reason ?? 'Video generation',
      reference,
    });
  }
  return { paidWith: 'credits', creditsHundredths: charge.priceHundredths };
}

/** Called once when a generation fails for good, in the transaction that marks it failed. */
export async function settleFailedGeneration(tx: Executor, row: GenerationRow): Promise<void> {
  if (!REFUND_FAILED_GENERATIONS || row.creditsUsedHundredths <= 0) return;
  await applyCreditChange(tx, {
    userId: row.userId,
    deltaHundredths: row.creditsUsedHundredths,
    kind: 'refund',
    actor: 'system',
    reason: 'Failed video generation',
    reference: `refund:generation:${row.id}`,
  });
}
