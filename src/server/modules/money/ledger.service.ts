import type { Executor } from '../../db/client';
import type { CreditChangeKind, CreditLedgerRow } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { publishBalanceChange } from '../../bus/publish';
import { CREDIT_UNIT } from '../../../shared/money/price-list';
import { toCredits } from '../../../shared/money/credits';
import { recordWebhookEvent } from '../outbound-webhooks/webhooks.service';
import * as repo from './ledger.repository';

/** `credits.low` goes out when a balance falls from at least this to below it (one credit: one standard video). */
export const LOW_CREDITS_HUNDREDTHS = CREDIT_UNIT;

/** Queues the user's `credits.low` webhooks when this change took the balance below the line (in the caller's transaction). */
export function noteLowCredits(tx: Executor, userId: string, before: number, after: number): Promise<void> {
  if (!(before >= LOW_CREDITS_HUNDREDTHS && after < LOW_CREDITS_HUNDREDTHS)) return Promise.resolve();
  return recordWebhookEvent(tx, {
    userId,
    type: 'credits.low',
    at: new Date(),
    data: () => ({ credits: toCredits(after), thresholdCredits: toCredits(LOW_CREDITS_HUNDREDTHS) }),
  });
}

/** Kinds that add to a user's lifetime credits when positive. */
const ADDING_KINDS: ReadonlySet<CreditChangeKind> = new Set(['purchase', 'grant', 'admin_adjustment']);

export interface CreditChange {
  userId: string;
  /** Signed change in hundredths of a credit. */
  deltaHundredths: number;
  kind: CreditChangeKind;
  actor: string;
  actorUserId?: string | null;
  reason?: string | null;
  reference?: string | null;
}

/** The prefix of a refund's reference: `refund:<the charge's reference>` (charge-generation.service.ts). */
const REFUND_PREFIX = 'refund:';

/**
 * How a change moves the given part of a balance (issue 45: given credits bring no revenue). Grants
 * and an administrator's additions are given; purchases are not; a charge spends given credits
 * first; a refund gives back the given part of its charge; anything else that takes credits away
 * (an administrator's reduction, a refunded purchase) leaves at most the new balance given.
 */
async function givenDeltaOf(tx: Executor, change: CreditChange, given: number, balance: number): Promise<number> {
  const delta = change.deltaHundredths;
  let after: number;
  if (change.kind === 'charge') after = given - Math.min(given, -delta);
  else if (change.kind === 'refund' && change.reference?.startsWith(REFUND_PREFIX))
    after = given + Math.min(delta, await repo.givenPartOfCharge(tx, change.reference.slice(REFUND_PREFIX.length)));
  else if (delta > 0 && (change.kind === 'grant' || change.kind === 'admin_adjustment')) after = given + delta;
  else after = given;
  return Math.max(0, Math.min(after, balance)) - given;
}

/**
 * Changes a balance and writes its ledger row inside the caller's transaction, holding the
 * user's row lock so concurrent changes serialise and the balance can never go below zero.
 */
export async function applyCreditChange(tx: Executor, change: CreditChange): Promise<CreditLedgerRow> {
  if (!Number.isInteger(change.deltaHundredths)) throw new Error('credit changes are whole hundredths');
  const locked = await repo.lockBalance(tx, change.userId);
  if (!locked) throw notFound('User not found', 'user_not_found');
  const balance = locked.creditsHundredths + change.deltaHundredths;
  if (balance < 0) {
    throw new AppError(402, 'insufficient_credits', 'Not enough credits for this change.');
  }
  const givenDelta = await givenDeltaOf(tx, change, locked.givenCreditsHundredths, balance);
  await repo.writeBalance(tx, change.userId, {
    balance,
    given: locked.givenCreditsHundredths + givenDelta,
    addedDelta: change.deltaHundredths > 0 && ADDING_KINDS.has(change.kind) ? change.deltaHundredths : 0,
    usedDelta: change.kind === 'charge' ? -change.deltaHundredths : 0,
  });
  await publishBalanceChange(tx, change.userId);
  await noteLowCredits(tx, change.userId, locked.creditsHundredths, balance);
  return repo.insertLedgerRow(tx, {
    userId: change.userId,
    deltaHundredths: change.deltaHundredths,
    balanceAfterHundredths: balance,
    givenDeltaHundredths: givenDelta,
    kind: change.kind,
    actor: change.actor,
    actorUserId: change.actorUserId ?? null,
    reason: change.reason ?? null,
    reference: change.reference ?? null,
  });
}

/** What a user's charges since `since` came to (hundredths), less the ones given back: the daily spend cap's sum. */
export function creditsChargedSince(tx: Executor, userId: string, since: Date): Promise<number> {
  return repo.chargedSince(tx, userId, since);
}

/** The user's balance in hundredths, with their row locked until the transaction ends. */
async function lockedBalance(tx: Executor, userId: string): Promise<number> {
  const locked = await repo.lockBalance(tx, userId);
  if (!locked) throw notFound('User not found', 'user_not_found');
  return locked.creditsHundredths;
}

/**
 * Takes up to `hundredths` from a balance (what is left when less remains, nothing when empty), as
 * one ledger row of what was taken; null when nothing was. For claw-backs that must never fail.
 */
export async function takeCreditsUpTo(
  tx: Executor,
  change: Omit<CreditChange, 'deltaHundredths'> & { hundredths: number },
): Promise<CreditLedgerRow | null> {
  const taken = Math.min(change.hundredths, await lockedBalance(tx, change.userId));
  if (taken <= 0) return null;
  const { hundredths: _requested, ...rest } = change;
  return applyCreditChange(tx, { ...rest, deltaHundredths: -taken });
}

/** Sets a balance to an exact figure as one ledger row of the difference (nothing when equal). */
export async function setCreditBalance(
  tx: Executor,
  target: Omit<CreditChange, 'deltaHundredths'> & { balanceHundredths: number },
): Promise<CreditLedgerRow | null> {
  const delta = target.balanceHundredths - (await lockedBalance(tx, target.userId));
  if (delta === 0) return null;
  return applyCreditChange(tx, { ...target, deltaHundredths: delta });
}

export function listLedger(tx: Executor, userId: string): Promise<CreditLedgerRow[]> {
  return repo.listLedger(tx, userId);
}
