import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** What changed: one of the user's generations (generationId says which), or their balance. */
export type LiveEventKind = 'generation' | 'balance';

/**
 * One row per change a signed-in browser is told about (decision 011). The row carries no state:
 * the web process holding the user's stream reads the current state when it delivers the event,
 * so a reconnecting stream (Last-Event-ID) gets the latest state of whatever changed since. Rows
 * are kept a short while (the retention sweeper prunes them), long enough for a reconnect.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<LiveEventKind>().notNull(),
    /** No foreign key: the event of a deleted generation outlives its row. */
    generationId: uuid('generation_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_user_idx').on(t.userId, t.id), index('live_events_created_idx').on(t.createdAt)],
);
export type LiveEventRow = typeof liveEvents.$inferSelect;
