import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const AI_RESULT_KINDS = ['enhanced_prompt', 'image_suggestion'] as const;
export type AiResultKind = (typeof AI_RESULT_KINDS)[number];

/**
 * What the AI helpers produced for a user (decisions 012 and 016): an enhanced prompt, or an image
 * analysis's suggested prompt. The enhance and analyse answers return a row's id; a generation that
 * names it (or, in the older request shape, whose description is its text) is charged for it, so a
 * client cannot claim a use that did not happen.
 */
export const aiResults = pgTable(
  'ai_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AiResultKind>().notNull(),
    /** The text, trimmed (kept 24 hours, like the uploads it was made from). */
    text: text('text').notNull(),
    /** An enhanced prompt made from an image analysis's suggested prompt: using it uses both. */
    fromSuggestion: boolean('from_suggestion').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_results_user_idx').on(t.userId, t.createdAt), index('ai_results_created_at_idx').on(t.createdAt)],
);
export type AiResultRow = typeof aiResults.$inferSelect;
