import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Plan, SubscriptionStatus } from '../../../shared/auth';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    /**
     * When the owner proved the email (a mailed verification link, a password reset, or a sign-in
     * provider that says it verified it); null until then.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * True while the sign-up credits wait for the email to be verified (accounts made unverified while
     * mail is configured); the one update that clears it grants them, so they are granted once.
     */
    signupCreditsPending: boolean('signup_credits_pending').notNull().default(false),
    /** argon2id hash; null for accounts that only use an external sign-in. */
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    isAdmin: boolean('is_admin').notNull().default(false),
    plan: text('plan').$type<Plan>().notNull().default('JUST_FOR_FUN'),
    subscriptionStatus: text('subscription_status').$type<SubscriptionStatus>().notNull().default('inactive'),
    /**
     * Available credits in hundredths of a credit (integers only; never negative). 64-bit: the
     * running totals below only grow, and 32 bits is 21 million credits.
     */
    creditsHundredths: bigint('credits_hundredths', { mode: 'number' }).notNull().default(0),
    /** Running totals kept with every ledger row, so lists can sort 100,000 users by them. */
    creditsUsedHundredths: bigint('credits_used_hundredths', { mode: 'number' }).notNull().default(0),
    creditsAddedHundredths: bigint('credits_added_hundredths', { mode: 'number' }).notNull().default(0),
    /** How much of the balance was given, not bought (never more than the balance): spent first. */
    givenCreditsHundredths: bigint('given_credits_hundredths', { mode: 'number' }).notNull().default(0),
    /**
     * The most credits (hundredths) the user may spend on generations in one UTC day; null follows
     * DAILY_SPEND_CAP_CREDITS, 0 means no cap for this user. Set on the admin page.
     */
    dailySpendCapHundredths: bigint('daily_spend_cap_hundredths', { mode: 'number' }),
    /** The user's Stripe customer, created at their first subscription. */
    stripeCustomerId: text('stripe_customer_id').unique(),
    /** The latest Stripe subscription started for the user; its events keep subscriptionStatus current. */
    stripeSubscriptionId: text('stripe_subscription_id').unique(),
    /** Warnings for breaking the content policy (issue 44); SAFETY_STRIKES_TO_SUSPEND of them suspend. */
    strikes: integer('strikes').notNull().default(0),
    /** Set: the account cannot sign in or make videos. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** The onboarding tours this person finished or skipped, on any device (issue 45). */
    completedTours: jsonb('completed_tours').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The id of the user's latest live event (decision 011): list ETags come from it without a query. */
    liveVersion: bigint('live_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('users_created_at_idx').on(t.createdAt, t.id),
    index('users_is_admin_idx').on(t.isAdmin),
    check('users_credits_nonnegative', sql`${t.creditsHundredths} >= 0`),
  ],
);
export type UserRow = typeof users.$inferSelect;

/**
 * One row per installation. Claiming `adminClaimed` atomically makes the first account ever
 * created the administrator, even when two registrations race.
 */
export const installation = pgTable('installation', {
  id: integer('id').primaryKey().default(1),
  adminClaimed: boolean('admin_claimed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
