import { z } from 'zod';
import { singleLine } from '../text';
import { EXTRA_PACKS, type ExtraPackName } from './plans';
import { formatCount } from './price-list';

/**
 * The payment calls (docs/product-rules.md, Payments and refunds) and the rules both sides apply to them. Amounts are whole
 * credits at $1 each; the server prices every payment itself and never trusts the client's figure.
 */

/** One purchase buys at most this many credits (Stripe's own ceiling is far above). */
export const MAX_CREDITS_PER_PURCHASE = 10_000;
export { CREDIT_PRICE_CENTS, formatUsd } from './price-list';

const creditsAmount = z
  .number({ error: 'Choose how many credits to buy' })
  .int('Credits are bought in whole numbers')
  .min(1, 'Buy at least 1 credit')
  .max(MAX_CREDITS_PER_PURCHASE, `At most ${formatCount(MAX_CREDITS_PER_PURCHASE)} credits can be bought at once`);

/** POST /api/credits/checkout */
export const creditsCheckoutRequestSchema = z.strictObject({ creditsAmount });
export const creditsCheckoutResponseSchema = z.object({ checkoutUrl: z.string() });

/** POST /api/credits/checkout-success */
export const checkoutSuccessRequestSchema = z.strictObject({
  sessionId: z.string().trim().min(1, 'No payment session found').max(255).check(singleLine),
});
export const checkoutSuccessResponseSchema = z.object({
  creditsAdded: z.number(),
  /** True when an earlier report of the same payment had already credited it. */
  alreadyCredited: z.boolean(),
});
export type CheckoutSuccess = z.infer<typeof checkoutSuccessResponseSchema>;

/** POST /api/credits/payment-intent: the embedded card form's PaymentIntent (not in the spec's table). */
export const creditsPaymentIntentRequestSchema = z.strictObject({ credits: creditsAmount });
export const creditsPaymentIntentResponseSchema = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
  credits: z.number(),
  amountCents: z.number(),
});
export type CreditsPaymentIntent = z.infer<typeof creditsPaymentIntentResponseSchema>;

/** POST /api/credits/fulfill */
export const fulfillRequestSchema = z.strictObject({
  paymentIntentId: z.string().trim().min(1).max(255).check(singleLine),
  credits: creditsAmount,
});
export const fulfillResponseSchema = checkoutSuccessResponseSchema;

/** POST /api/payments/start-subscription and /api/payments/extra-generations */
export const clientSecretResponseSchema = z.object({ clientSecret: z.string() });
export const EXTRA_PACK_NAMES = Object.keys(EXTRA_PACKS) as ExtraPackName[];
export const extraGenerationsRequestSchema = z.strictObject({
  package: z.enum(EXTRA_PACK_NAMES as [ExtraPackName, ...ExtraPackName[]], {
    error: 'Choose the small, medium or large pack',
  }),
});

/**
 * POST /api/payments/confirm (not in the spec's table): after the card form succeeds on /subscribe the
 * browser asks the server to look the payment up at Stripe, so packs and subscriptions take effect
 * at once even where Stripe's webhooks cannot reach the server.
 */
export const confirmPaymentRequestSchema = z.strictObject({
  paymentIntentId: z.string().trim().min(1).max(255).check(singleLine).optional(),
});

/** GET /api/payments/config: the publishable key reaches the browser at run time, not in the build. */
export const paymentsConfigSchema = z.object({
  enabled: z.boolean(),
  publishableKey: z.string().nullable(),
  /** Who to ask for credits where payments are not configured (OPERATOR_CONTACT): an email or a URL; older servers omit it. */
  operatorContact: z.string().nullable().default(null),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/** 'mailto:' for an email address, the URL itself otherwise: the operator contact as a link. */
export function operatorContactHref(contact: string): string {
  return /^https?:\/\//.test(contact) ? contact : `mailto:${contact}`;
}

/** What a customer reads where payments are not configured: who to ask for credits, never how to configure it. */
export function paymentsDisabledMessage(operatorContact: string | null | undefined): string {
  return operatorContact
    ? `Payments are not set up on this server. To get credits, contact the operator: ${operatorContact}.`
    : 'Payments are not set up on this server. To get credits, ask the person who runs it.';
}

/** The code of the 503 every payment call answers on a server without Stripe keys. */
export const PAYMENTS_DISABLED = 'payments_disabled';

/** Prices (docs/product-rules.md): /payment-checkout's `credits` parameter. */
export type CreditsParam =
  { ok: true; credits: number } | { ok: false; message: 'No credit amount specified' | 'Invalid credit amount' };

export function parseCreditsParam(raw: string | null | undefined): CreditsParam {
  if (raw === null || raw === undefined || raw.trim() === '')
    return { ok: false, message: 'No credit amount specified' };
  const value = raw.trim();
  if (!/^\d+$/.test(value)) return { ok: false, message: 'Invalid credit amount' };
  const credits = Number(value);
  if (!Number.isSafeInteger(credits) || credits < 1 || credits > MAX_CREDITS_PER_PURCHASE)
    return { ok: false, message: 'Invalid credit amount' };
  return { ok: true, credits };
}
