import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ReviewFinding } from '../../../shared/moderation';
import type { UploadKind } from '../../../shared/uploads';
import { users } from './users';

export type UploadStatus = 'pending' | 'receiving' | 'completed';

/** One uploaded input (or the promise of one, while its signed URL is unused). */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    objectKey: text('object_key').notNull().unique(),
    status: text('status').$type<UploadStatus>().notNull().default('pending'),
    kind: text('kind').$type<UploadKind>(),
    contentType: text('content_type'),
    sizeBytes: integer('size_bytes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Inputs are deleted 24 hours after they were created. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * Faces the face detector found in an image upload (issue 43): a video made from it needs the
     * uploader's consent when there is one. Null: not looked at yet (or the detector could not run);
     * 0 for pictures the server made itself (Continue's and Extend's frames of a video made here).
     */
    faces: integer('faces'),
    /**
     * What screening flagged in it for an administrator's review (issue 43): a job made from it waits
     * for their decision. Null: nothing flagged.
     */
    flagged: jsonb('flagged').$type<ReviewFinding[]>(),
  },
  (t) => [index('uploads_user_idx').on(t.userId, t.createdAt), index('uploads_expires_at_idx').on(t.expiresAt)],
);
export type UploadRow = typeof uploads.$inferSelect;
