import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * What an administrator set in the browser (issue 45): one row per provider, its keys as one sealed
 * text (AES-256-GCM under a key derived from the installation's secret, lib/sealed-text.ts): the
 * database, a backup or a dump holds no plain key. Every process reads the rows at start and again
 * when told through NOTIFY (modules/settings), so a change needs no restart.
 */
export const installationSettings = pgTable('installation_settings', {
  /** A provider id (shared/installation-settings.ts PROVIDER_IDS). */
  name: text('name').primaryKey(),
  sealed: text('sealed').notNull(),
  /** The end of the key ("…a1b2") or the address, shown on the settings page. */
  hint: text('hint').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});
export type InstallationSettingRow = typeof installationSettings.$inferSelect;
