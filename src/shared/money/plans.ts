import { z } from 'zod';

/**
 * The commercial constants (docs/product-rules.md: Prices, Daily generations and the 3am New York day, Extra packs) and the daily-generations clock. Money is in cents,
 * credits in whole credits (the ledger stores hundredths).
 */

export { CREDIT_PACKAGES, type CreditPackage } from './price-list';

export const EXTRA_PACKS = {
  small: { generations: 30, priceCents: 1000 },
  medium: { generations: 70, priceCents: 2000 },
  large: { generations: 175, priceCents: 5000 },
} as const;
export type ExtraPackName = keyof typeof EXTRA_PACKS;
/** Extra generations are valid this long after purchase. */
export const EXTRA_PACK_VALID_DAYS = 30;

/** The daily subscription: 15 generations a day, $1 a day for the first 7 days, then $2. */
export const DAILY_GENERATION_LIMIT = 15;
export const SUBSCRIPTION_INTRO_DAYS = 7;
export const SUBSCRIPTION_INTRO_PRICE_CENTS = 100;
export const SUBSCRIPTION_PRICE_CENTS = 200;

/** Daily generations reset at 3am in New York (EST or EDT, whichever is in force that day). */
export const DAILY_RESET_TIME_ZONE = 'America/New_York';
export const DAILY_RESET_HOUR = 3;

// Made on first use: a formatter with a time zone loads that zone's data, about 20 ms of a phone's
// main thread, which every page importing this module would otherwise pay while it starts.
let partsFormatter: Intl.DateTimeFormat | undefined;
function newYorkFormatter(): Intl.DateTimeFormat {
  partsFormatter ??= new Intl.DateTimeFormat('en-US', {
    timeZone: DAILY_RESET_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return partsFormatter;
}

/** The wall-clock fields of an instant in New York. */
function newYorkParts(instant: Date): {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
} {
  const parts = Object.fromEntries(
    newYorkFormatter()
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The instant at which New York's wall clock reads the given date at 3:00. */
function newYorkThreeAm(year: number, month: number, day: number): Date {
  // Start from 3:00 UTC-5 and correct by the zone's real offset at that moment (EDT is UTC-4).
  let guess = Date.UTC(year, month - 1, day, DAILY_RESET_HOUR + 5);
  for (let i = 0; i < 2; i += 1) {
    const p = newYorkParts(new Date(guess));
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += Date.UTC(year, month - 1, day, DAILY_RESET_HOUR) - wall;
  }
  return new Date(guess);
}

/**
 * The start of the generation day containing `now`: the latest 3am New York time at or before it.
 * Correct across daylight-saving changes (3am exists on both change days in New York).
 */
export function generationDayStart(now: Date): Date {
  const p = newYorkParts(now);
  const today = newYorkThreeAm(p.year, p.month, p.day);
  if (today.getTime() <= now.getTime()) return today;
  const yesterday = new Date(Date.UTC(p.year, p.month - 1, p.day - 1));
  return newYorkThreeAm(yesterday.getUTCFullYear(), yesterday.getUTCMonth() + 1, yesterday.getUTCDate());
}

/** When the current generation day ends (the next 3am New York time). */
export function nextGenerationReset(now: Date): Date {
  const start = newYorkParts(generationDayStart(now));
  const next = new Date(Date.UTC(start.year, start.month - 1, start.day + 1));
  return newYorkThreeAm(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

/** GET /api/user/generation-status (docs/product-rules.md, Paying for a generation). */
export const generationStatusSchema = z.object({
  dailyUsed: z.number(),
  dailyLimit: z.number(),
  extraRemaining: z.number(),
  subscriptionStatus: z.string(),
  canGenerate: z.boolean(),
});
export type GenerationStatus = z.infer<typeof generationStatusSchema>;
