import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AdvancedSettings, GenerationStatus } from '../../../shared/generations';
import type { ModelId } from '../../../shared/money/pricing';
import type { UploadKind } from '../../../shared/uploads';
import { users } from './users';

/** One input of a generation, copied from its upload so the job never depends on the upload row. */
export interface GenerationInput {
  uploadId: string;
  objectKey: string;
  contentType: string;
  /** When the upload's file is deleted (ISO time); Remix offers the input until then. */
  expiresAt?: string;
}
export type GenerationInputs = Partial<Record<UploadKind, GenerationInput>>;

/**
 * One row is at once the user's record, the job and its queue entry (decision 003). Workers
 * claim pending rows, or processing rows whose lease expired, with FOR UPDATE SKIP LOCKED.
 */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    prompt: text('prompt').notNull(),
    model: text('model').$type<ModelId>().notNull(),
    status: text('status').$type<GenerationStatus>().notNull().default('pending'),
    /** Seconds the engine was asked for (the supported duration nearest to the request). */
    requestedDuration: integer('requested_duration').notNull(),
    /** Seconds measured from the output file. */
    outputDuration: doublePrecision('output_duration'),
    hasAudio: boolean('has_audio').notNull(),
    isEconomy: boolean('is_economy').notNull().default(false),
    settings: jsonb('settings').$type<AdvancedSettings>().notNull().default({}),
    inputs: jsonb('inputs').$type<GenerationInputs>().notNull().default({}),
    creditsUsedHundredths: integer('credits_used_hundredths').notNull().default(0),
    /** How it was paid: credits, a daily subscription generation, an extra-pack generation, or unlimited. */
    paidWith: text('paid_with').$type<'credits' | 'daily' | 'pack' | 'unlimited'>().notNull().default('credits'),
    progress: integer('progress').notNull().default(0),
    progressStage: text('progress_stage'),
    errorMessage: text('error_message'),
    /** Claims so far, including ones whose worker died; at most MAX_ATTEMPTS. */
    attempts: integer('attempts').notNull().default(0),
    /** A pending job is not claimed before this (retry backoff). */
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** The provider's task id, saved as soon as it accepts the job, so a retry resumes instead of paying twice. */
    providerTaskId: text('provider_task_id'),
    outputKey: text('output_key'),
    posterKey: text('poster_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** 24 hours after completion; the output is deleted then. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * Moves by one with every update of the row (`nextVersion`), under its row lock: of two copies
     * a browser gets (a live event, the answer to Generate), the one with the lower version is older.
     */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    index('generations_queue_idx')
      .on(t.status, t.runAfter)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // Recent job durations give queue estimates (decision 011).
    index('generations_completed_idx')
      .on(t.completedAt)
      .where(sql`${t.status} = 'completed'`),
    index('generations_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.outputKey} is not null`),
  ],
);
export type GenerationRow = typeof generations.$inferSelect;

/** What every update of a generation sets besides its own fields: the row's next version. */
export const nextVersion = () => ({ version: sql<number>`${generations.version} + 1` });
