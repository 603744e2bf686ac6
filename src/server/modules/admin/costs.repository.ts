import { gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { creditLedger, generations } from '../../db/schema';

/** One model's generations on one UTC day, counted and summed in the database. */
export interface CostGroup {
  day: string;
  model: string;
  videos: number;
  completed: number;
  paidWithCredits: number;
  paidWithDaily: number;
  paidWithPack: number;
  free: number;
  /** Credits charged and not given back, in hundredths. */
  creditsHundredths: number;
  /** The part of those that had been given (sign-up credits, grants), not bought. */
  givenCreditsHundredths: number;
  /** Daily and pack generations used and not given back. */
  dailyKept: number;
  packKept: number;
  /** Provider cost of the completed ones, in millionths of a US dollar. */
  providerCostMicroUsd: number;
  completedWithoutCost: number;
}

// Constant SQL (no bound parameters), so the grouped expression is the selected one to PostgreSQL.
const day = sql<string>`to_char(${generations.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const counted = (condition: ReturnType<typeof sql>) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
const summed = (value: ReturnType<typeof sql>, condition: ReturnType<typeof sql>) =>
  sql<number>`coalesce(sum(${value}) filter (where ${condition}), 0)`.mapWith(Number);
const completed = sql`${generations.status} = 'completed'`;
const kept = sql`${generations.refundedAt} is null`;
// The given part of a generation's charge (its ledger row, referenced generation:<id>; 0 for rows older than the split).
const givenPart = sql`coalesce((select -${creditLedger.givenDeltaHundredths} from ${creditLedger}
  where ${creditLedger.reference} = 'generation:' || ${generations.id}::text and ${creditLedger.kind} = 'charge'), 0)`;

/** Generations made since `since`, grouped by UTC day and model (records deleted by their owner or by retention are gone). */
export async function costGroups(tx: Executor, since: Date): Promise<CostGroup[]> {
  return tx
    .select({
      day,
      model: generations.model,
      videos: sql<number>`count(*)`.mapWith(Number),
      completed: counted(completed),
      paidWithCredits: counted(sql`${generations.paidWith} = 'credits'`),
      paidWithDaily: counted(sql`${generations.paidWith} = 'daily'`),
      paidWithPack: counted(sql`${generations.paidWith} = 'pack'`),
      free: counted(sql`${generations.paidWith} in ('unlimited', 'operator')`),
      creditsHundredths: summed(
        sql`${generations.creditsUsedHundredths}`,
        sql`${generations.paidWith} = 'credits' and ${kept}`,
      ),
      givenCreditsHundredths: summed(givenPart, sql`${generations.paidWith} = 'credits' and ${kept}`),
      dailyKept: counted(sql`${generations.paidWith} = 'daily' and ${kept}`),
      packKept: counted(sql`${generations.paidWith} = 'pack' and ${kept}`),
      providerCostMicroUsd: summed(sql`${generations.providerCostMicroUsd}`, completed),
      completedWithoutCost: counted(sql`${completed} and ${generations.providerCostMicroUsd} is null`),
    })
    .from(generations)
    .where(gte(generations.createdAt, since))
    .groupBy(day, generations.model)
    .orderBy(sql`1 desc`, generations.model);
}
