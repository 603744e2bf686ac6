import type { Executor } from '../../db/client';
import type { CreditChangeKind, CreditLedgerRow } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { publishBalanceChange } from '../events/live-events.service';
import * as repo from './ledger.repository';

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
  await repo.writeBalance(tx, change.userId, {
    balance,
    addedDelta: change.deltaHundredths > 0 && ADDING_KINDS.has(change.kind) ? change.deltaHundredths : 0,
    usedDelta: change.kind === 'charge' ? -change.deltaHundredths : 0,
  });
  await publishBalanceChange(tx, change.userId);
  return repo.insertLedgerRow(tx, {
    userId: change.userId,
    deltaHundredths: change.deltaHundredths,
    balanceAfterHundredths: balance,
    kind: change.kind,
    actor: change.actor,
    actorUserId: change.actorUserId ?? null,
    reason: change.reason ?? null,
    reference: change.reference ?? null,
  });
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
