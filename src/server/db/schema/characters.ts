import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { LikenessConsent } from '../../../shared/moderation';
import { users } from './users';

/** One kept picture of a character: its own copy in storage (under the user's outputs), with the faces found in it. */
export interface CharacterImage {
  key: string;
  contentType: string;
  faces: number | null;
}

/**
 * A character or object of a user's library (issue 47): a name, a description and 1 to 3 pictures,
 * copied from uploads so they outlive them. A generation naming it gets copies of the pictures as
 * reference images, or its description in the prompt (modules/characters/characters.service.ts).
 */
export const characters = pgTable(
  'characters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    images: jsonb('images').$type<CharacterImage[]>().notNull(),
    /** The maker's confirmation, when a picture shows a real person (as for an upload of one). */
    consent: jsonb('consent').$type<LikenessConsent>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('characters_user_created_idx').on(t.userId, t.createdAt)],
);
export type CharacterRow = typeof characters.$inferSelect;
