import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Reports sent by the browser's error fallback screen. */
export const errorReports = pgTable(
  'error_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    errorId: text('error_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    stack: text('stack'),
    componentStack: text('component_stack'),
    url: text('url').notNull(),
    userAgent: text('user_agent').notNull(),
    clientTimestamp: timestamp('client_timestamp', { withTimezone: true }).notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('error_reports_error_id_idx').on(t.errorId), index('error_reports_created_at_idx').on(t.createdAt)],
);
