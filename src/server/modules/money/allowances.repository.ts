import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  allowanceLedger,
  dailyGenerationUsage,
  type ExtraGenerationPackRow,
  extraGenerationPacks,
} from '../../db/schema';

/** Takes one daily generation if fewer than `limit` were used this day, in one statement; false when none is left. */
export async function takeDailyGeneration(
  tx: Executor,
  userId: string,
  dayStart: Date,
  limit: number,
): Promise<boolean> {
  if (limit <= 0) return false;
  const rows = await tx
    .insert(dailyGenerationUsage)
    .values({ userId, dayStart, used: 1 })
    .onConflictDoUpdate({
      target: [dailyGenerationUsage.userId, dailyGenerationUsage.dayStart],
      set: { used: sql`${dailyGenerationUsage.used} + 1` },
      setWhere: lt(dailyGenerationUsage.used, limit),
    })
    .returning({ used: dailyGenerationUsage.used });
  return rows.length > 0;
}

export async function dailyUsed(tx: Executor, userId: string, dayStart: Date): Promise<number> {
  const [row] = await tx
    .select({ used: dailyGenerationUsage.used })
    .from(dailyGenerationUsage)
    .where(and(eq(dailyGenerationUsage.userId, userId), eq(dailyGenerationUsage.dayStart, dayStart)));
  return row?.used ?? 0;
}

/** Takes one generation from the user's pack that expires soonest and still has some; null when none. */
export async function takePackGeneration(
  tx: Executor,
  userId: string,
  now: Date,
): Promise<ExtraGenerationPackRow | null> {
  const [pack] = await tx
    .select()
    .from(extraGenerationPacks)
    .where(
      and(
        eq(extraGenerationPacks.userId, userId),
        gt(extraGenerationPacks.expiresAt, now),
        lt(extraGenerationPacks.used, extraGenerationPacks.generations),
      ),
    )
    .orderBy(asc(extraGenerationPacks.expiresAt))
    .limit(1)
    .for('update');
  if (!pack) return null;
  const [updated] = await tx
    .update(extraGenerationPacks)
    .set({ used: sql`${extraGenerationPacks.used} + 1` })
    .where(eq(extraGenerationPacks.id, pack.id))
    .returning();
  return updated ?? null;
}

export async function remainingPackGenerations(tx: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({
      left: sql<number>`coalesce(sum(${extraGenerationPacks.generations} - ${extraGenerationPacks.used}), 0)::int`,
    })
    .from(extraGenerationPacks)
    .where(and(eq(extraGenerationPacks.userId, userId), gt(extraGenerationPacks.expiresAt, now)));
  return Number(row?.left ?? 0);
}

/**
 * Takes up to `count` unused generations out of the pack a payment bought (never below what was
 * already used); answers the pack before and after, or null when no pack has that payment.
 */
export async function shrinkPack(
  tx: Executor,
  paymentReference: string,
  count: number,
): Promise<{ before: ExtraGenerationPackRow; after: ExtraGenerationPackRow } | null> {
  const [before] = await tx
    .select()
    .from(extraGenerationPacks)
    .where(eq(extraGenerationPacks.paymentReference, paymentReference))
    .for('update');
  if (!before) return null;
  const [after] = await tx
    .update(extraGenerationPacks)
    .set({ generations: sql`greatest(${extraGenerationPacks.used}, ${extraGenerationPacks.generations} - ${count})` })
    .where(eq(extraGenerationPacks.id, before.id))
    .returning();
  return after ? { before, after } : null;
}

export async function insertPack(
  tx: Executor,
  pack: typeof extraGenerationPacks.$inferInsert,
): Promise<ExtraGenerationPackRow | null> {
  const [row] = await tx.insert(extraGenerationPacks).values(pack).onConflictDoNothing().returning();
  return row ?? null;
}

export async function insertAllowanceChange(tx: Executor, change: typeof allowanceLedger.$inferInsert): Promise<void> {
  await tx.insert(allowanceLedger).values(change);
}

/** The allowance use that paid for something (a generation's `generation:<id>`), or null. */
export async function findUse(
  tx: Executor,
  reference: string,
): Promise<{ kind: string; dayStart: Date | null; packId: string | null } | null> {
  const [row] = await tx
    .select({ kind: allowanceLedger.kind, dayStart: allowanceLedger.dayStart, packId: allowanceLedger.packId })
    .from(allowanceLedger)
    .where(and(eq(allowanceLedger.reference, reference), inArray(allowanceLedger.kind, ['daily_use', 'pack_use'])))
    .limit(1);
  return row ?? null;
}

/** Gives one daily generation of that day back (never below none used); false when there was none to give. */
export async function giveBackDailyGeneration(tx: Executor, userId: string, dayStart: Date): Promise<boolean> {
  const rows = await tx
    .update(dailyGenerationUsage)
    .set({ used: sql`${dailyGenerationUsage.used} - 1` })
    .where(
      and(
        eq(dailyGenerationUsage.userId, userId),
        eq(dailyGenerationUsage.dayStart, dayStart),
        gt(dailyGenerationUsage.used, 0),
      ),
    )
    .returning({ used: dailyGenerationUsage.used });
  return rows.length > 0;
}

/** Gives one generation back to a pack (never below none used); false when there was none to give. */
export async function giveBackPackGeneration(tx: Executor, packId: string): Promise<boolean> {
  const rows = await tx
    .update(extraGenerationPacks)
    .set({ used: sql`${extraGenerationPacks.used} - 1` })
    .where(and(eq(extraGenerationPacks.id, packId), gt(extraGenerationPacks.used, 0)))
    .returning({ id: extraGenerationPacks.id });
  return rows.length > 0;
}
