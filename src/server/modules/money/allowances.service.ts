import { isSubscribed, isUnlimitedStatus, type SubscriptionStatus } from '../../../shared/auth';
import {
  DAILY_GENERATION_LIMIT,
  EXTRA_PACK_VALID_DAYS,
  EXTRA_PACKS,
  type ExtraPackName,
  type GenerationStatus,
  generationDayStart,
} from '../../../shared/money/plans';
import { PRICES } from '../../../shared/money/pricing';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { ExtraGenerationPackRow } from '../../db/schema';
import { publishBalanceChange } from '../../bus/publish';
import * as repo from './allowances.repository';

// A generation's payment (the only use of the two below) is announced by the generation's own live
// event, which names the balance too: they publish nothing themselves.

/** Uses one of today's subscription generations, with its ledger row; false when none is left. */
export async function useDailyGeneration(tx: Executor, userId: string, now: Date, reference: string): Promise<boolean> {
  const dayStart = generationDayStart(now);
  if (!(await repo.takeDailyGeneration(tx, userId, dayStart, DAILY_GENERATION_LIMIT))) return false;
  await repo.insertAllowanceChange(tx, { userId, kind: 'daily_use', delta: -1, dayStart, reference });
  return true;
}

/** Uses one generation of the pack that expires soonest, with its ledger row; false when none is left. */
export async function usePackGeneration(tx: Executor, userId: string, now: Date, reference: string): Promise<boolean> {
  const pack = await repo.takePackGeneration(tx, userId, now);
  if (!pack) return false;
  await repo.insertAllowanceChange(tx, { userId, kind: 'pack_use', delta: -1, packId: pack.id, reference });
  return true;
}

/** Adds an extra pack (once per payment), valid 30 days from `purchasedAt`. */
export async function grantPack(
  tx: Executor,
  grant: { userId: string; pack: ExtraPackName; purchasedAt: Date; paymentReference: string },
): Promise<ExtraGenerationPackRow | null> {
  const { generations } = EXTRA_PACKS[grant.pack];
  const row = await repo.insertPack(tx, {
    userId: grant.userId,
    pack: grant.pack,
    generations,
    purchasedAt: grant.purchasedAt,
    expiresAt: new Date(grant.purchasedAt.getTime() + EXTRA_PACK_VALID_DAYS * 86_400_000),
    paymentReference: grant.paymentReference,
  });
  if (row) {
    await repo.insertAllowanceChange(tx, {
      userId: grant.userId,
      kind: 'pack_purchase',
      delta: generations,
      packId: row.id,
      reference: grant.paymentReference,
    });
    await publishBalanceChange(tx, grant.userId);
  }
  return row;
}

/**
 * Takes back generations of a pack whose payment was refunded: up to `count` of those not used yet,
 * with an allowance ledger row of what was actually taken.
 */
export async function revokePackGenerations(
  tx: Executor,
  paymentReference: string,
  count: number,
  reference: string,
): Promise<void> {
  if (count <= 0) return;
  const shrunk = await repo.shrinkPack(tx, paymentReference, count);
  const taken = shrunk ? shrunk.before.generations - shrunk.after.generations : 0;
  if (shrunk && taken > 0) {
    await repo.insertAllowanceChange(tx, {
      userId: shrunk.after.userId,
      kind: 'pack_refund',
      delta: -taken,
      packId: shrunk.after.id,
      reference,
    });
    await publishBalanceChange(tx, shrunk.after.userId);
  }
}

/** GET /api/user/generation-status */
export async function generationStatus(
  ctx: ServiceContext,
  user: { id: string; subscriptionStatus: SubscriptionStatus; creditsHundredths: number },
): Promise<GenerationStatus> {
  const now = ctx.now();
  const [used, extraRemaining] = await Promise.all([
    repo.dailyUsed(ctx.db, user.id, generationDayStart(now)),
    repo.remainingPackGenerations(ctx.db, user.id, now),
  ]);
  const dailyLeft = isSubscribed(user.subscriptionStatus) && used < DAILY_GENERATION_LIMIT;
  return {
    dailyUsed: used,
    dailyLimit: DAILY_GENERATION_LIMIT,
    extraRemaining,
    subscriptionStatus: user.subscriptionStatus,
    canGenerate:
      isUnlimitedStatus(user.subscriptionStatus) ||
      dailyLeft ||
      extraRemaining > 0 ||
      user.creditsHundredths >= PRICES.economyVideo,
  };
}

/**
 * Gives back the daily or pack generation that paid for a generation (`reference` names it as its use
 * did), with an allowance ledger row; false when no use of either kind paid for it. The caller makes
 * sure this runs once per generation.
 */
export async function giveBackGenerationUse(
  tx: Executor,
  userId: string,
  use: { reference: string; refundReference: string },
): Promise<'daily' | 'pack' | null> {
  const found = await repo.findUse(tx, use.reference);
  if (found?.kind === 'daily_use' && found.dayStart) {
    if (!(await repo.giveBackDailyGeneration(tx, userId, found.dayStart))) return null;
    await repo.insertAllowanceChange(tx, {
      userId,
      kind: 'daily_use_refund',
      delta: 1,
      dayStart: found.dayStart,
      reference: use.refundReference,
    });
    await publishBalanceChange(tx, userId);
    return 'daily';
  }
  if (found?.kind === 'pack_use' && found.packId) {
    if (!(await repo.giveBackPackGeneration(tx, found.packId))) return null;
    await repo.insertAllowanceChange(tx, {
      userId,
      kind: 'pack_use_refund',
      delta: 1,
      packId: found.packId,
      reference: use.refundReference,
    });
    await publishBalanceChange(tx, userId);
    return 'pack';
  }
  return null;
}
