import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ReportReason, ReportStatus } from '../../../shared/safety';
import { users } from './users';

/** What a report keeps of its video, so the queue and the audit still show it once it is removed. */
export interface ReportedVideo {
  prompt: string;
  model: string;
  createdAt: string;
}

/**
 * Reports of videos and owners' appeals of takedowns (issue 44): the safety queue. A report outlives
 * its video (no foreign key to generations): the decision and what was removed stay for the audit.
 */
export const safetyReports = pgTable(
  'safety_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<'report' | 'appeal'>().notNull(),
    generationId: uuid('generation_id').notNull(),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').$type<ReportReason>().notNull(),
    description: text('description').notNull().default(''),
    reporterContact: text('reporter_contact'),
    reporterUserId: uuid('reporter_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The reporter's address as an HMAC with the installation secret (the rate limit's key, not the address). */
    reporterAddress: text('reporter_address'),
    /** The reporter confirmed the takedown statement (required for reasons about a person shown). */
    statement: boolean('statement').notNull().default(false),
    video: jsonb('video').$type<ReportedVideo>().notNull(),
    /** An appeal's takedown report. */
    appealOf: uuid('appeal_of'),
    status: text('status').$type<ReportStatus>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
    decisionNote: text('decision_note'),
  },
  (t) => [
    index('safety_reports_open_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'open'`),
    index('safety_reports_generation_idx').on(t.generationId),
    index('safety_reports_owner_idx').on(t.ownerUserId),
    index('safety_reports_address_idx').on(t.reporterAddress, t.createdAt),
  ],
);

/**
 * Perceptual hashes (64-bit difference hashes, 16 hex digits) of the frames and inputs of taken-down
 * videos: a later upload or render that matches one is refused or held (SAFETY_MATCH_ACTION).
 */
export const blockedMediaHashes = pgTable(
  'blocked_media_hashes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hash: text('hash').notNull(),
    reportId: uuid('report_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blocked_media_hashes_created_idx').on(t.createdAt)],
);

export type SafetyReportRow = typeof safetyReports.$inferSelect;
