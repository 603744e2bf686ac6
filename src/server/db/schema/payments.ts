import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const PAYMENT_KINDS = ['credits', 'extra_pack'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
/** Which report of a payment fulfilled it first. */
export type PaymentSource = 'fulfill' | 'checkout' | 'webhook' | 'confirm';

/**
 * Every fulfilled payment, keyed by Stripe's PaymentIntent id: the primary key is what makes a
 * payment credit once however many times, and however concurrently, it is reported.
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<PaymentKind>().notNull(),
    /** Credits bought (kind credits). */
    credits: integer('credits'),
    /** Pack bought (kind extra_pack). */
    pack: text('pack'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** The Checkout Session the payment came through, if any. */
    checkoutSessionId: text('checkout_session_id'),
    /** How much of the payment Stripe has refunded so far (the charge's cumulative amount_refunded). */
    refundedCents: integer('refunded_cents').notNull().default(0),
    source: text('source').$type<PaymentSource>().notNull(),
    /** Stripe's receipt page for the payment's charge, looked up when the user first lists their receipts. */
    receiptUrl: text('receipt_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.createdAt),
    check('payments_refund_within', sql`${t.refundedCents} >= 0 AND ${t.refundedCents} <= ${t.amountCents}`),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;

/** Stripe webhook events already handled: each event id is processed once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
