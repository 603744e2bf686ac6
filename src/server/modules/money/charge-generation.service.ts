import { isSubscribed, isUnlimitedStatus, type SubscriptionStatus } from '../../../shared/auth';
import { toCredits } from '../../../shared/money/credits';
import { formatCount } from '../../../shared/money/price-list';
import { insufficientCreditsMessage } from '../../../shared/generations';
import {
  DAILY_SPEND_CAP_CODE,
  dailySpendCapMessage,
  nextSpendReset,
  spendDayStart,
} from '../../../shared/money/spend-cap';
import type { Executor } from '../../db/client';
import type { GenerationRow } from '../../db/schema';
import { AppError, tooManyRequests } from '../../lib/app-error';
import { giveBackGenerationUse, useDailyGeneration, usePackGeneration } from './allowances.service';
import { applyCreditChange, creditsChargedSince, noteLowCredits } from './ledger.service';

/** Who pays for a generation, read under their row lock in the generation's transaction. */
export interface Payer {
  creditsHundredths: number;
  subscriptionStatus: SubscriptionStatus;
  /**
   * Whether an unexpired extra pack of theirs has generations left, read after the lock was taken:
   * false skips the pack lookup; left out, the pack is looked up.
   */
  hasPackGenerations?: boolean;
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

/**
 * 429 daily_spend_cap, with the sentence saying when the cap resets, when today's charges (the ledger's,
 * less those given back) and this one would pass the user's daily cap. The caller holds the user's row
 * lock, so concurrent requests of theirs are summed one after another and never pass it together.
 */
export async function requireWithinSpendCap(
  tx: Executor,
  charge: { userId: string; priceHundredths: number; capHundredths: number; now: Date },
): Promise<void> {
  const spent = await creditsChargedSince(tx, charge.userId, spendDayStart(charge.now));
  if (spent + charge.priceHundredths <= charge.capHundredths) return;
  const resetsAt = nextSpendReset(charge.now);
  throw tooManyRequests(
    dailySpendCapMessage({
      priceHundredths: charge.priceHundredths,
      capHundredths: charge.capHundredths,
      spentHundredths: spent,
      resetsAt,
    }),
    (resetsAt.getTime() - charge.now.getTime()) / 1000,
    DAILY_SPEND_CAP_CODE,
  );
}

export type PaidWith = 'unlimited' | 'daily' | 'pack' | 'credits';

export interface GenerationPayment {
  paidWith: PaidWith;
  creditsHundredths: number;
  /** Credits, a daily or a pack generation were used: the user's tabs must hear of their balance. */
  balanceChanged: boolean;
  /**
   * The credits to take, with the ledger row's reason and reference, written by the statement that
   * inserts the generation (`insertPaidGeneration`); null when none are taken.
   */
  charge: { hundredths: number; reason: string; reference: string } | null;
}

/**
 * Pays for a generation inside the transaction that inserts it, under the user's row lock, in
 * the order of decision 006: unlimited users pay nothing; subscribers use one of today's daily
 * generations; then an extra-pack generation (the pack expiring soonest first); then credits at
 * the server's price, within the user's daily spend cap (`spendCapHundredths`, null for none):
 * daily, pack and unlimited generations spend no credits, so the cap does not count or stop them.
 * An allowance is used here. Credits are checked here and taken by the generation's insert, in the
 * same statement as its ledger row (referencing the generation, so it is never charged twice) and
 * its live event, which announces the balance (`balanceChanged`).
 */
export async function payForGeneration(
  tx: Executor,
  payer: Payer,
  job: { userId: string; generationId: string; now: Date },
  price: { hundredths: number; reason?: string; spendCapHundredths?: number | null },
): Promise<GenerationPayment> {
  if (isUnlimitedStatus(payer.subscriptionStatus))
    return { paidWith: 'unlimited', creditsHundredths: 0, balanceChanged: false, charge: null };
  const reference = `generation:${job.generationId}`;
  if (isSubscribed(payer.subscriptionStatus) && (await useDailyGeneration(tx, job.userId, job.now, reference))) {
    return { paidWith: 'daily', creditsHundredths: 0, balanceChanged: true, charge: null };
  }
  if (payer.hasPackGenerations !== false && (await usePackGeneration(tx, job.userId, job.now, reference))) {
    return { paidWith: 'pack', creditsHundredths: 0, balanceChanged: true, charge: null };
  }
  requireAffordable(payer, price.hundredths);
  if (price.hundredths <= 0) return { paidWith: 'credits', creditsHundredths: 0, balanceChanged: false, charge: null };
  if (price.spendCapHundredths)
    await requireWithinSpendCap(tx, {
      userId: job.userId,
      priceHundredths: price.hundredths,
      capHundredths: price.spendCapHundredths,
      now: job.now,
    });
  await noteLowCredits(tx, job.userId, payer.creditsHundredths, payer.creditsHundredths - price.hundredths);
  return {
    paidWith: 'credits',
    creditsHundredths: price.hundredths,
    balanceChanged: true,
    charge: { hundredths: price.hundredths, reason: price.reason ?? 'Video generation', reference },
  };
}

/**
 * A batch (each job at its own price: variations, or one video on each of two models) paid in credits only (no unlimited plan, daily generations or packs to use first) is
 * refused before anything is written when the credits do not cover all N, with the sentence
 * naming the whole price; any other mix is checked job by job in the same transaction.
 */
export function requireBatchAffordable(payer: Payer, pricesHundredths: number[], what = 'variations'): void {
  if (isUnlimitedStatus(payer.subscriptionStatus) || isSubscribed(payer.subscriptionStatus)) return;
  if (payer.hasPackGenerations !== false) return;
  const total = pricesHundredths.reduce((sum, price) => sum + price, 0);
  if (payer.creditsHundredths >= total) return;
  throw new AppError(
    402,
    'insufficient_credits',
    `Need ${toCredits(total)} credits for ${pricesHundredths.length} ${what}. You have ${toCredits(payer.creditsHundredths)}.`,
  );
}

/** Who gives a failed generation's charge back: the refund policy (REFUND_FAILED_GENERATIONS) or an administrator. */
export interface RefundActor {
  label: string;
  userId: string | null;
}

/** What a refunded charge was, and the sentence added to the job's message. */
export interface GenerationRefund {
  paidWith: 'credits' | 'daily' | 'pack';
  creditsHundredths: number;
  sentence: string;
}

/**
 * Gives a failed generation's charge back to whatever paid it, in the caller's transaction: credits as
 * a 'refund' ledger row (its reference `refund:generation:<id>` is unique, so a second refund of the
 * same generation could never be written), or the daily or pack generation it used as an allowance
 * ledger row. Null when nothing was paid (unlimited, an operator's re-run). The caller marks the
 * generation refunded first, so this runs once per generation.
 */
export async function refundGenerationCharge(
  tx: Executor,
  row: Pick<GenerationRow, 'id' | 'userId' | 'paidWith' | 'creditsUsedHundredths'>,
  actor: RefundActor,
): Promise<GenerationRefund | null> {
  const refundReference = `refund:generation:${row.id}`;
  if (row.paidWith === 'credits' && row.creditsUsedHundredths > 0) {
    await applyCreditChange(tx, {
      userId: row.userId,
      deltaHundredths: row.creditsUsedHundredths,
      kind: 'refund',
      actor: actor.label,
      actorUserId: actor.userId,
      reason: 'Failed video generation',
      reference: refundReference,
    });
    const credits = toCredits(row.creditsUsedHundredths);
    const sentence =
      credits === 1 ? 'Your 1 credit was refunded.' : `Your ${formatCount(credits)} credits were refunded.`;
    return { paidWith: 'credits', creditsHundredths: row.creditsUsedHundredths, sentence };
  }
  if (row.paidWith === 'daily' || row.paidWith === 'pack') {
    const given = await giveBackGenerationUse(tx, row.userId, { reference: `generation:${row.id}`, refundReference });
    if (!given) return null;
    const sentence =
      given === 'daily'
        ? 'The daily generation it used was given back.'
        : 'The extra-pack generation it used was given back.';
    return { paidWith: given, creditsHundredths: 0, sentence };
  }
  return null;
}
