import { index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { RemovedWaysIn, SecurityEventKind } from '../../../shared/account-security';
import { users } from './users';

/** The external sign-ins: 'oidc' is the configured OpenID Connect provider at /api/login. */
export const IDENTITY_PROVIDERS = ['oidc', 'google'] as const;
export type IdentityProvider = (typeof IDENTITY_PROVIDERS)[number];

/** An external sign-in linked to an account: the provider's subject signs its user in. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').$type<IdentityProvider>().notNull(),
    /** The provider's stable id of the person (the ID token's `sub`). */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The email the provider gave when the identity was linked (for the account page). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('user_identities_provider_subject_key').on(t.provider, t.subject),
    index('user_identities_user_id_idx').on(t.userId),
  ],
);
export type UserIdentityRow = typeof userIdentities.$inferSelect;

/**
 * Password-reset links: only the SHA-256 of the token is kept; a link works once, until it expires,
 * and only while the account still has the address it was mailed to.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to (or made for, by the operator's command). */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('password_reset_tokens_user_id_idx').on(t.userId),
    index('password_reset_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Email-verification links: only the SHA-256 of the token is kept; a link works once, for a day, and
 * only for the address it was mailed to.
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /**
     * 'verify' proves the account's address; 'change' moves the account to `email` (asked for on
     * /account). A 'verify' link to an address the account no longer has does nothing.
     */
    purpose: text('purpose').$type<'verify' | 'change'>().notNull().default('verify'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_verification_tokens_user_id_idx').on(t.userId),
    index('email_verification_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Events that ended ways into an account (decision 018): a hand-over, a password reset or change,
 * proving the email, an email change, each with what it removed. The account page lists them.
 */
export const accountSecurityEvents = pgTable(
  'account_security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<SecurityEventKind>().notNull(),
    /** The sign-in that took the account over, for a hand-over. */
    via: text('via'),
    removed: jsonb('removed').$type<RemovedWaysIn>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_security_events_user_idx').on(t.userId, t.createdAt)],
);
export type AccountSecurityEventRow = typeof accountSecurityEvents.$inferSelect;
