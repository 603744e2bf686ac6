import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** 'refund' gives back a generation's charge; 'purchase_refund' takes back credits whose payment Stripe refunded. */
export const CREDIT_CHANGE_KINDS = [
  'purchase',
  'grant',
  'admin_adjustment',
  'charge',
  'refund',
  'purchase_refund',
] as const;
export type CreditChangeKind = (typeof CREDIT_CHANGE_KINDS)[number];

/** Every change of a user's credits, written in the same transaction as the balance it changes. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Signed change in hundredths of a credit (64-bit, as the balance it changes). */
    deltaHundredths: bigint('delta_hundredths', { mode: 'number' }).notNull(),
    balanceAfterHundredths: bigint('balance_after_hundredths', { mode: 'number' }).notNull(),
    /**
     * The part of the change in given credits (sign-up credits, grants, an administrator's additions),
     * which bring no revenue: a charge spends them before bought ones (issue 45). 0 on rows older than it.
     */
    givenDeltaHundredths: bigint('given_delta_hundredths', { mode: 'number' }).notNull().default(0),
    kind: text('kind').$type<CreditChangeKind>().notNull(),
    /** Who made the change: 'admin:<email>', 'cli', 'stripe', 'system'. */
    actor: text('actor').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    /** An external id (a payment) that may be credited once only. */
    reference: text('reference').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userId, t.createdAt),
    index('credit_ledger_created_at_idx').on(t.createdAt),
  ],
);
export type CreditLedgerRow = typeof creditLedger.$inferSelect;
