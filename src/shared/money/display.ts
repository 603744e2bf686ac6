import { isSubscribed, isUnlimitedStatus, subscriptionStatusLabel, subscriptionStatusSchema } from '../auth';
import type { GenerationStatus } from './plans';
import { CREDIT_PRICE_CENTS, formatCreditTitle, formatPrice, formatUsd } from './price-list';

export { formatPrice } from './price-list';

/**
 * How the payment screens and the generator word money, credits and allowances. Pure and
 * browser-safe; the figures themselves live in billing.ts and payments.ts.
 */

/** Wording (docs/product-rules.md) on /credits: 'Purchase 30 Credits for $30'. */
export function purchaseCreditsLabel(credits: number): string {
  return `Purchase ${formatCreditTitle(credits)} for ${formatPrice(credits * CREDIT_PRICE_CENTS)}`;
}

/** Wording (docs/product-rules.md) on /payment-checkout: '30 Credits - $30.00 USD'. */
export function creditPurchaseLine(credits: number, amountCents: number = credits * CREDIT_PRICE_CENTS): string {
  return `${formatCreditTitle(credits)} - ${formatUsd(amountCents)} USD`;
}

/** Wording (docs/product-rules.md) on /payment-success: '30 credits have been added to your account'. */
export function creditsAddedSentence(credits: number): string {
  return credits === 1
    ? '1 credit has been added to your account'
    : `${credits} credits have been added to your account`;
}

/** 'You can now generate 30 AI videos': a standard video costs 1 credit. */
export function videosAffordableSentence(credits: number): string {
  const videos = Math.floor(credits);
  return `You can now generate ${videos} AI ${videos === 1 ? 'video' : 'videos'}`;
}

/** The status badge: premium_unlimited reads 'Admin'; a status this build does not know is shown as sent. */
export function subscriptionBadgeText(subscriptionStatus: string): string {
  const known = subscriptionStatusSchema.safeParse(subscriptionStatus);
  return known.success ? subscriptionStatusLabel(known.data) : subscriptionStatus;
}

export type GenerationPayer =
  | { kind: 'unlimited' }
  | { kind: 'daily'; left: number; limit: number }
  | { kind: 'extra'; left: number }
  | { kind: 'credits' };

/**
 * What will pay for the next video, in the server's order (decision 006): unlimited users pay
 * nothing; subscribers use one of today's generations while any are left; then an extra-pack
 * generation; else credits. Without the generation status only the first and last are known.
 */
export function nextGenerationPayer(isUnlimited: boolean, status: GenerationStatus | undefined): GenerationPayer {
  if (isUnlimited || (status && isUnlimitedStatus(status.subscriptionStatus))) return { kind: 'unlimited' };
  if (!status) return { kind: 'credits' };
  const dailyLeft = Math.max(0, status.dailyLimit - status.dailyUsed);
  if (isSubscribed(status.subscriptionStatus) && dailyLeft > 0)
    return { kind: 'daily', left: dailyLeft, limit: status.dailyLimit };
  if (status.extraRemaining > 0) return { kind: 'extra', left: status.extraRemaining };
  return { kind: 'credits' };
}

/** The generator's line for a video paid by an allowance; null when credits (or nothing) pay. */
export function describeGenerationPayer(payer: GenerationPayer): string | null {
  switch (payer.kind) {
    case 'daily':
      return `Uses 1 of today's generations (${payer.left} of ${payer.limit} left)`;
    case 'extra':
      return `Uses 1 extra generation (${payer.left} left)`;
    default:
      return null;
  }
}

/** Wording (docs/product-rules.md) on /payment-checkout: the error card offers Log In when its message mentions logging in. */
export function mentionsLogIn(message: string): boolean {
  return message.toLowerCase().includes('log in');
}
