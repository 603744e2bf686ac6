import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Daily subscription generations used in one generation day (which starts at 3am New York time). */
export const dailyGenerationUsage = pgTable(
  'daily_generation_usage',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dayStart: timestamp('day_start', { withTimezone: true }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.dayStart] }), check('daily_usage_nonnegative', sql`${t.used} >= 0`)],
);

/** A pack of extra generations, valid 30 days from purchase. */
export const extraGenerationPacks = pgTable(
  'extra_generation_packs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pack: text('pack').notNull(),
    generations: integer('generations').notNull(),
    used: integer('used').notNull().default(0),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The payment that bought it: a pack is granted once per payment. */
    paymentReference: text('payment_reference').unique(),
  },
  (t) => [
    index('extra_packs_user_idx').on(t.userId, t.expiresAt),
    check('extra_packs_within', sql`${t.used} >= 0 AND ${t.used} <= ${t.generations}`),
  ],
);
export type ExtraGenerationPackRow = typeof extraGenerationPacks.$inferSelect;

/** 'daily_use_refund' and 'pack_use_refund' give back a failed generation's use (issue 31). */
export const ALLOWANCE_CHANGE_KINDS = [
  'daily_use',
  'pack_use',
  'pack_purchase',
  'pack_refund',
  'daily_use_refund',
  'pack_use_refund',
] as const;
export type AllowanceChangeKind = (typeof ALLOWANCE_CHANGE_KINDS)[number];

/** Every change of a generation allowance, written in the same transaction as the change. */
export const allowanceLedger = pgTable(
  'allowance_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AllowanceChangeKind>().notNull(),
    /** Signed change in generations (a use is -1). */
    delta: integer('delta').notNull(),
    packId: uuid('pack_id').references(() => extraGenerationPacks.id, { onDelete: 'set null' }),
    dayStart: timestamp('day_start', { withTimezone: true }),
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('allowance_ledger_user_idx').on(t.userId, t.createdAt)],
);
