import { z } from 'zod';
import { CREDIT_PRICE_CENTS } from './money/price-list';
import { DAILY_GENERATION_LIMIT, EXTRA_PACKS, SUBSCRIPTION_PRICE_CENTS } from './money/plans';

// The cost view (issue 31): GET /api/admin/costs, per UTC day and per model, for administrators only.

export const COST_DAYS_DEFAULT = 14;
export const COST_DAYS_MAX = 90;

export const adminCostsQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(COST_DAYS_MAX, `days must be at most ${COST_DAYS_MAX}`)
    .default(COST_DAYS_DEFAULT),
});
export type AdminCostsQuery = z.infer<typeof adminCostsQuerySchema>;

/**
 * What a generation brought in, in millionths of a US dollar, by how it was paid:
 * - credits: the credit price the product sells at ($1 a credit, CREDIT_PRICE_CENTS), times the credits charged
 *   that were bought (a charge spends given credits, such as the sign-up credit, first; they bring nothing);
 * - a daily-subscription generation: a full-price day ($2) over its 15 generations, the least a used one brings;
 * - an extra-pack generation: the cheapest pack's price per generation (the large pack's), the least one brings;
 * - unlimited accounts and an administrator's re-runs: nothing.
 * So the margin shown is a floor: a subscriber who makes fewer than 15 videos a day, or a small pack, brings more.
 */
export const REVENUE_MICRO_USD = {
  perCreditHundredth: CREDIT_PRICE_CENTS * 100,
  dailyGeneration: Math.round((SUBSCRIPTION_PRICE_CENTS * 10_000) / DAILY_GENERATION_LIMIT),
  packGeneration: Math.round(
    Math.min(...Object.values(EXTRA_PACKS).map((pack) => (pack.priceCents * 10_000) / pack.generations)),
  ),
} as const;

/** One model's figures on one day (or a day's or the period's totals, with `model` null). */
export const costFiguresSchema = z.object({
  /** Generations made (jobs created), whatever became of them. */
  videos: z.number().int(),
  completed: z.number().int(),
  /** How the videos were paid: credits, a daily-subscription or an extra-pack generation, or free (unlimited, re-runs). */
  paidWithCredits: z.number().int(),
  paidWithDaily: z.number().int(),
  paidWithPack: z.number().int(),
  free: z.number().int(),
  /** Credits charged, less charges given back. */
  creditsCharged: z.number(),
  /** The part of those that had been given, not bought (sign-up credits, grants): they bring no revenue. */
  creditsGiven: z.number().default(0),
  /** What the videos brought in, valued as REVENUE_MICRO_USD says (refunded charges bring nothing). */
  revenueUsd: z.number(),
  /** What the providers bill for the completed videos, at the price MODELS_CONFIG gave when each was made. */
  providerCostUsd: z.number(),
  /** Completed videos whose model had no `providerCost` when they were made (their cost is not in providerCostUsd). */
  completedWithoutCost: z.number().int(),
  marginUsd: z.number(),
});
export type CostFigures = z.infer<typeof costFiguresSchema>;

export const costRowSchema = costFiguresSchema.extend({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  model: z.string(),
  /** The catalogue's name, or the id of a model this server no longer knows. */
  modelName: z.string(),
});
export type CostRow = z.infer<typeof costRowSchema>;

export const adminCostsSchema = z.object({
  days: z.number().int(),
  /** First and last UTC day covered, YYYY-MM-DD (today last). */
  from: z.string(),
  to: z.string(),
  /** Newest day first; within a day, models by name. Days and models without videos are left out. */
  rows: z.array(costRowSchema),
  dayTotals: z.array(costFiguresSchema.extend({ day: z.string() })),
  totals: costFiguresSchema,
  /** What a credit, a daily and a pack generation are valued at (USD). */
  valuation: z.object({ creditUsd: z.number(), dailyGenerationUsd: z.number(), packGenerationUsd: z.number() }),
  /** DAILY_SPEND_CAP_CREDITS: the cap everyone without their own has, in credits; null when none. */
  defaultDailySpendCap: z.number().nullable(),
});
export type AdminCosts = z.infer<typeof adminCostsSchema>;
