import { isUnlimitedStatus } from '../../../shared/auth';
import { toCredits } from '../../../shared/credits';
import { insufficientCreditsMessage } from '../../../shared/generations';
import type { Executor } from '../../db/client';
import type { GenerationRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { applyCreditChange } from '../credits/credits.service';
import type { LockedPayer } from './generations.repository';

/**
 * Whether a failed generation gives its credits back. The spec says failed generations are not
 * refunded; this is the one place to change that.
 */
export const REFUND_FAILED_GENERATIONS = false;

/** 402 with the spec's sentence, before anything is written. */
export function requireAffordable(payer: LockedPayer, priceHundredths: number): void {
  if (isUnlimitedStatus(payer.subscriptionStatus)) return;
  if (payer.creditsHundredths < priceHundredths) {
    throw new AppError(
      402,
      'insufficient_credits',
      insufficientCreditsMessage(toCredits(priceHundredths), toCredits(payer.creditsHundredths)),
    );
  }
}

/**
 * Pays for a generation inside the transaction that inserts it, under the user's row lock:
 * unlimited users pay nothing; everyone else pays the server's price in credits, as one ledger
 * row referencing the generation (so it can never be charged twice). Answers hundredths charged.
 */
export async function payForGeneration(
  tx: Executor,
  payer: LockedPayer,
  charge: { userId: string; generationId: string; priceHundredths: number },
): Promise<number> {
  requireAffordable(payer, charge.priceHundredths);
  if (isUnlimitedStatus(payer.subscriptionStatus) || charge.priceHundredths === 0) return 0;
  await applyCreditChange(tx, {
    userId: charge.userId,
    deltaHundredths: -charge.priceHundredths,
    kind: 'charge',
    actor: 'system',
    reason: 'Video generation',
    reference: `generation:${charge.generationId}`,
  });
  return charge.priceHundredths;
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
