/**
 * The figures the public price list shows, with no zod: the landing page's pricing section is
 * built from this module alone, so a visitor's browser never loads the schemas (decision 013).
 * The modules that own these figures (credits, payments, plans, pricing, display) re-export them.
 */

/** Credits are stored as integers in hundredths of a credit; the API shows them as numbers. */
export const CREDIT_UNIT = 100;

export function toCredits(hundredths: number): number {
  return hundredths / CREDIT_UNIT;
}

export function toHundredths(credits: number): number {
  return Math.round(credits * CREDIT_UNIT);
}

/**
 * '1,234.5': what `toLocaleString('en-US')` writes for a count (digits grouped by three, at most
 * three decimals), without Intl. A page's first use of Intl loads its locale data, about 25 ms of
 * a phone's main thread in one piece (decision 013), for output this simple.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return value.toLocaleString('en-US');
  const rounded = Math.round(Math.abs(value) * 1000) / 1000;
  const [whole = '0', fraction] = rounded.toString().split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${value < 0 && rounded !== 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** '1 Credit', '30 Credits', '0.5 Credits': the spec's '{n} Credits' of badges and titles, never '1 Credits'. */
export function formatCreditTitle(credits: number): string {
  return `${formatCount(credits)} ${credits === 1 ? 'Credit' : 'Credits'}`;
}

/** '1 credit', '3 credits', '0.5 credits', '1,000 credits'. */
export function formatCreditCount(credits: number): string {
  return `${formatCount(credits)} ${credits === 1 ? 'credit' : 'credits'}`;
}

export const CREDIT_PRICE_CENTS = 100;

/** '$30.00' */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** '$30' for whole dollars, '$30.50' otherwise: the short prices of packages and packs. */
export function formatPrice(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : formatUsd(cents);
}

export interface CreditPackage {
  credits: number;
  priceCents: number;
  popular: boolean;
}

/** $1 a credit: 10, 30 (most popular), 75 and 200. Credits never expire. */
export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { credits: 10, priceCents: 1000, popular: false },
  { credits: 30, priceCents: 3000, popular: true },
  { credits: 75, priceCents: 7500, popular: false },
  { credits: 200, priceCents: 20000, popular: false },
];

/** All prices in hundredths of a credit (integers), so sums never drift. */
export const PRICES = {
  baseVideo: 100,
  economyVideo: 50,
  audio: 200,
  /** The spec's display says +1 each; the server halves these add-ons (docs/product-rules.md, Prices). */
  promptEnhancement: 50,
  imageAnalysis: 50,
} as const;
/** The cost per video (docs/product-rules.md, Prices), from the prices above (before any add-on). */
export const VIDEO_COSTS = [
  { label: 'Economy video', credits: toCredits(PRICES.economyVideo) },
  { label: 'Standard video', credits: toCredits(PRICES.baseVideo) },
  { label: 'Video with audio or voice', credits: toCredits(PRICES.baseVideo + PRICES.audio) },
] as const;
