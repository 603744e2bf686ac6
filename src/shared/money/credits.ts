import { z } from 'zod';

/** Credits are stored as integers in hundredths of a credit; the API shows them as numbers. */
export const CREDIT_UNIT = 100;

export function toCredits(hundredths: number): number {
  return hundredths / CREDIT_UNIT;
}

export function toHundredths(credits: number): number {
  return Math.round(credits * CREDIT_UNIT);
}

/** GET /api/credits/balance */
export const creditBalanceSchema = z.object({ credits: z.number() });
export type CreditBalance = z.infer<typeof creditBalanceSchema>;

/** '1 credit', '3 credits', '0.5 credits', '1,000 credits'. */
export function formatCreditCount(credits: number): string {
  return `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;
}
