import { formatCount, formatCreditCount, toCredits } from './price-list';

/**
 * The daily spend cap (docs/product-rules.md, Paying for a generation): the most credits a user may spend on
 * generations in one UTC day. Its day is the UTC day, as the admin cost view's, not the subscription's
 * 3am New York day, so the operator reads caps and costs on the same days.
 */

/** The error code of a generation refused by the cap (429). */
export const DAILY_SPEND_CAP_CODE = 'daily_spend_cap';

/**
 * The cap that applies to a user, in hundredths, or null for none: their own when an administrator set
 * one (0 there exempts them), else the operator's default (DAILY_SPEND_CAP_CREDITS, null when unset).
 */
export function effectiveSpendCap(ownHundredths: number | null, defaultHundredths: number | null): number | null {
  const cap = ownHundredths ?? defaultHundredths;
  return cap !== null && cap > 0 ? cap : null;
}

/** The start of the spend cap's day containing `now`: midnight UTC. */
export function spendDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** When the cap's day containing `now` ends: the next midnight UTC. */
export function nextSpendReset(now: Date): Date {
  return new Date(spendDayStart(now).getTime() + 86_400_000);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** '00:00 UTC on 26 November 2026' */
export function formatSpendReset(resetsAt: Date): string {
  return `00:00 UTC on ${resetsAt.getUTCDate()} ${MONTHS[resetsAt.getUTCMonth()] ?? ''} ${resetsAt.getUTCFullYear()}`;
}

/**
 * The refusal's sentence: what the video costs, the cap, what was spent today, and when it resets,
 * e.g. 'This video costs 1 credit, which would take you past your daily spending limit of 2 credits
 * (2 spent today). The limit resets at 00:00 UTC on 26 November 2026.'
 */
export function dailySpendCapMessage(figures: {
  priceHundredths: number;
  capHundredths: number;
  spentHundredths: number;
  resetsAt: Date;
}): string {
  return (
    `This video costs ${formatCreditCount(toCredits(figures.priceHundredths))}, which would take you past your daily spending limit of ` +
    `${formatCreditCount(toCredits(figures.capHundredths))} (${formatCount(toCredits(figures.spentHundredths))} spent today). ` +
    `The limit resets at ${formatSpendReset(figures.resetsAt)}.`
  );
}
