import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TokenScope } from '../../../shared/api-tokens';
import { users } from './users';

/**
 * Personal access tokens (`Authorization: Bearer rs_...`). Only the SHA-256 of the token is kept:
 * the token is 32 random bytes, so a leaked table cannot be turned back into tokens (no dictionary
 * or brute force reaches 2^256), and a fast hash keeps the lookup of every API request cheap.
 * Revoking deletes the row.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (base64url) of the whole token. */
    tokenHash: text('token_hash').notNull().unique(),
    name: text('name').notNull(),
    scopes: jsonb('scopes').$type<TokenScope[]>().notNull(),
    /** Null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Written at most once a minute per token. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /**
     * Whether the account's email was proven when the token was made: one made while nobody had
     * proven the address may be a stranger's, and proving it ends such tokens (decision 018).
     */
    madeWhileVerified: boolean('made_while_verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId, t.createdAt)],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;

/**
 * Idempotency-Key answers (as Stripe keeps them): per user and key, the hash of the request and,
 * once it finished, the answer it got. A row without a status is a request still running.
 * Rows older than 24 hours no longer count and the retention sweeper deletes them.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, route and body. */
    requestHash: text('request_hash').notNull(),
    /** The answer's status and body; null while the first request runs. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_at_idx').on(t.createdAt)],
);
