import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Shot } from '../../../shared/storyboards';
import { users } from './users';

/** A board's film settings (src/shared/storyboards.ts): how its shots' takes become one video. */
export interface StoryboardFilmSettings {
  aspectRatio: '16:9' | '9:16' | '1:1';
  resolution: '480p' | '720p' | '1080p';
  titleCard: { text: string; seconds: number; background: string } | null;
  transitionSeconds: number;
  bedFile: string | null;
}

/**
 * A storyboard (issue 47): a named, ordered list of shots, stored whole as the user edits it (the
 * order is the array's). A shot's takes are generations carrying the board's and the shot's ids.
 */
export const storyboards = pgTable(
  'storyboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    shots: jsonb('shots').$type<Shot[]>().notNull().default([]),
    film: jsonb('film').$type<StoryboardFilmSettings>().notNull(),
    /** Moves by one with every edit: an edit made on an older version is refused (409 storyboard_changed). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('storyboards_user_updated_idx').on(t.userId, t.updatedAt)],
);
export type StoryboardRow = typeof storyboards.$inferSelect;
