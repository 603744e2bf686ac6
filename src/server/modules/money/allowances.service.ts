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
import { publishBalanceChange } from '../events/live-events.service';
import * as repo from './allowances.repository';

/** Uses one of today's subscription generations, with its ledger row; false when none is left. */
export async function useDailyGeneration(tx: Executor, userId: string, now: Date, reference: string): Promise<boolean> {
  const dayStart = generationDayStart(now);
  if (!(await repo.takeDailyGeneration(tx, userId, dayStart, DAILY_GENERATION_LIMIT))) return false;
  await repo.insertAllowanceChange(tx, { userId, kind: 'daily_use', delta: -1, dayStart, reference });
  await publishBalanceChange(tx, userId);
  return true;
}

/** Uses one generation of the pack that expires soonest, with its ledger row; false when none is left. */
export async function usePackGeneration(tx: Executor, userId: string, now: Date, reference: string): Promise<boolean> {
  const pack = await repo.takePackGeneration(tx, userId, now);
  if (!pack) return false;
  await repo.insertAllowanceChange(tx, { userId, kind: 'pack_use', delta: -1, packId: pack.id, reference });
  await publishBalanceChange(tx, userId);
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
