import { z } from 'zod';

/**
 * The subscriber's side of money after the purchase (issue 19, decision 012): the subscription's
 * next charge, cancelling it, Stripe's billing portal and the list of receipts. Browser-safe.
 */

/** GET /api/payments/subscription */
export const subscriptionDetailsSchema = z.object({
  /** Null when the user has no subscription at Stripe (or this server takes no payments). */
  subscription: z
    .object({
      /** Stripe's status: active, trialing, past_due, canceled, incomplete... */
      status: z.string(),
      /** When Stripe charges next (ISO), null when it will not charge again. */
      nextChargeAt: z.string().nullable(),
      /** What that charge is, in cents; null with nextChargeAt. */
      nextChargeCents: z.number().int().nullable(),
    })
    .nullable(),
  /** Whether 'Manage billing' can open Stripe's customer portal (the user is a Stripe customer). */
  canManageBilling: z.boolean(),
});
export type SubscriptionDetails = z.infer<typeof subscriptionDetailsSchema>;

/** POST /api/payments/billing-portal: the one-time address of a Stripe customer portal session. */
export const billingPortalResponseSchema = z.object({ url: z.string() });

/**
 * Decision 012: cancelling ends the subscription at once (no further charge), and today's
 * remaining daily generations end with it. The /subscribe card says so before the user confirms.
 */
export const CANCEL_SUBSCRIPTION_NOTICE =
  'Cancelling ends your subscription now: you will not be charged again, and the daily generations left today end with it.';

export const RECEIPT_KINDS = ['credits', 'extra_pack', 'subscription'] as const;
export const RECEIPT_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** One payment of GET /api/payments/receipts. */
export const receiptSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  kind: z.enum(RECEIPT_KINDS),
  /** 'What was bought': '30 credits', 'Medium pack: 70 extra generations'. */
  description: z.string(),
  amountCents: z.number().int(),
  refundedCents: z.number().int(),
  currency: z.string(),
  status: z.enum(RECEIPT_STATUSES),
  /** Stripe's receipt page (a subscription's: its invoice page), when Stripe has one. */
  receiptUrl: z.string().nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;
export const receiptListSchema = z.object({ receipts: z.array(receiptSchema) });

export function receiptStatus(amountCents: number, refundedCents: number): ReceiptStatus {
  if (refundedCents <= 0) return 'paid';
  return refundedCents >= amountCents ? 'refunded' : 'partially_refunded';
}

export function receiptStatusLabel(status: ReceiptStatus): string {
  switch (status) {
    case 'paid':
      return 'Paid';
    case 'partially_refunded':
      return 'Partly refunded';
    case 'refunded':
      return 'Refunded';
  }
}
