import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookAttempt, WebhookDeliveryStatus, WebhookEventType } from '../../../shared/webhooks';
import { users } from './users';

/** A user's webhook endpoint: where their events go, which events, and the key that signs them. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().$type<WebhookEventType[]>().notNull(),
    /** `whsec_` + base64: the receiver needs the same key to verify, so it is kept as it was shown. */
    secret: text('secret').notNull(),
    /**
     * Whether the account's email was proven when the endpoint was added: one added while nobody had
     * proven the address may be a stranger's, and proving it removes such endpoints (decision 018).
     */
    madeWhileVerified: boolean('made_while_verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId, t.createdAt)],
);
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * One event for one endpoint, and the queue the worker delivers from (like the generations table:
 * claimed with SKIP LOCKED, retried at `next_attempt_at` with backoff). `payload` is the exact body
 * signed and sent; `message_id` is its webhook-id, the same on every retry and redelivery.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** While a worker sends it; a delivery whose worker died is claimed again after this. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** The attempts so far, oldest first (response status, duration, error, time). */
    log: jsonb('log').$type<WebhookAttempt[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_queue_idx')
      .on(t.status, t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'delivering')`),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
