import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** A browser's Web Push subscription (RFC 8030): where to send, and the keys to encrypt for it (RFC 8291). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The push service's URL for this browser: one browser profile, one subscription. */
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and its 16-byte authentication secret, base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user_id_idx').on(t.userId)],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** A user's notification choices, and until when a tab of theirs is in front of them (no notification then). */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** An e-mail when a video is ready or failed (opt-in; needs SMTP_URL). */
  email: boolean('email').notNull().default(false),
  /** A visible tab says so every minute; past this time nobody is looking. */
  presentUntil: timestamp('present_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The installation's VAPID key pair (RFC 8292), made once by the first process that needs it and
 * read by every other: a browser subscribes with the web process's public key, and a worker in
 * another container must sign its push requests with the same pair, or push services refuse them.
 * One row, `id = 'installation'`; unused when VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set.
 */
export const pushKeys = pgTable('push_keys', {
  id: text('id').primaryKey(),
  /** Both base64url, as `web-push generate-vapid-keys` prints them. */
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
