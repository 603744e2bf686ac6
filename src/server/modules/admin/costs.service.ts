import {
  type AdminCosts,
  type AdminCostsQuery,
  type CostFigures,
  type CostRow,
  REVENUE_MICRO_USD,
} from '../../../shared/admin-costs';
import { toCredits } from '../../../shared/money/credits';
import { spendDayStart } from '../../../shared/money/spend-cap';
import type { ServiceContext } from '../../context';
import * as repo from './costs.repository';

// The cost view (issue 31): per UTC day and model, videos, credits charged, provider cost and margin.

const DAY_MS = 86_400_000;
const toUsd = (microUsd: number) => Math.round(microUsd) / 1_000_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Figures kept in integers (hundredths, micro-dollars) until they are presented, so sums never drift. */
interface Sums {
  videos: number;
  completed: number;
  paidWithCredits: number;
  paidWithDaily: number;
  paidWithPack: number;
  free: number;
  creditsHundredths: number;
  givenCreditsHundredths: number;
  revenueMicroUsd: number;
  providerCostMicroUsd: number;
  completedWithoutCost: number;
}

const EMPTY: Sums = {
  videos: 0,
  completed: 0,
  paidWithCredits: 0,
  paidWithDaily: 0,
  paidWithPack: 0,
  free: 0,
  creditsHundredths: 0,
  givenCreditsHundredths: 0,
  revenueMicroUsd: 0,
  providerCostMicroUsd: 0,
  completedWithoutCost: 0,
};

function sumsOf(group: repo.CostGroup): Sums {
  return {
    videos: group.videos,
    completed: group.completed,
    paidWithCredits: group.paidWithCredits,
    paidWithDaily: group.paidWithDaily,
    paidWithPack: group.paidWithPack,
    free: group.free,
    creditsHundredths: group.creditsHundredths,
    givenCreditsHundredths: group.givenCreditsHundredths,
    // Given credits (sign-up credits, grants) were never paid for: they bring nothing.
    revenueMicroUsd:
      (group.creditsHundredths - group.givenCreditsHundredths) * REVENUE_MICRO_USD.perCreditHundredth +
      group.dailyKept * REVENUE_MICRO_USD.dailyGeneration +
      group.packKept * REVENUE_MICRO_USD.packGeneration,
    providerCostMicroUsd: group.providerCostMicroUsd,
    completedWithoutCost: group.completedWithoutCost,
  };
}

function add(a: Sums, b: Sums): Sums {
  const total = { ...a };
  for (const key of Object.keys(total) as (keyof Sums)[]) total[key] += b[key];
  return total;
}

function present(sums: Sums): CostFigures {
  return {
    videos: sums.videos,
    completed: sums.completed,
    paidWithCredits: sums.paidWithCredits,
    paidWithDaily: sums.paidWithDaily,
    paidWithPack: sums.paidWithPack,
    free: sums.free,
    creditsCharged: toCredits(sums.creditsHundredths),
    creditsGiven: toCredits(sums.givenCreditsHundredths),
    revenueUsd: toUsd(sums.revenueMicroUsd),
    providerCostUsd: toUsd(sums.providerCostMicroUsd),
    completedWithoutCost: sums.completedWithoutCost,
    marginUsd: toUsd(sums.revenueMicroUsd - sums.providerCostMicroUsd),
  };
}

/**
 * GET /api/admin/costs: the last `days` UTC days (today included), per day and model, with each day's
 * and the period's totals. Revenue is valued as REVENUE_MICRO_USD says; provider cost is what each
 * completed job recorded when it was made (MODELS_CONFIG `providerCost`).
 */
export async function costsReport(ctx: ServiceContext, query: AdminCostsQuery): Promise<AdminCosts> {
  const today = spendDayStart(ctx.now());
  const since = new Date(today.getTime() - (query.days - 1) * DAY_MS);
  const groups = await repo.costGroups(ctx.db, since);
  const nameOf = (model: string) => ctx.engines.info(model)?.name ?? model;
  const rows: CostRow[] = groups
    .map((group) => ({ day: group.day, model: group.model, modelName: nameOf(group.model), ...present(sumsOf(group)) }))
    .sort((a, b) => b.day.localeCompare(a.day) || a.modelName.localeCompare(b.modelName));
  const byDay = new Map<string, Sums>();
  let totals = EMPTY;
  for (const group of groups) {
    const sums = sumsOf(group);
    byDay.set(group.day, add(byDay.get(group.day) ?? EMPTY, sums));
    totals = add(totals, sums);
  }
  const cap = ctx.config.operations.dailySpendCapHundredths;
  return {
    days: query.days,
    from: isoDay(since),
    to: isoDay(today),
    rows,
    dayTotals: [...byDay.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([day, sums]) => ({ day, ...present(sums) })),
    totals: present(totals),
    valuation: {
      creditUsd: toUsd(REVENUE_MICRO_USD.perCreditHundredth * 100),
      dailyGenerationUsd: toUsd(REVENUE_MICRO_USD.dailyGeneration),
      packGenerationUsd: toUsd(REVENUE_MICRO_USD.packGeneration),
    },
    defaultDailySpendCap: cap === null ? null : toCredits(cap),
  };
}
