import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AdvancedSettings, GenerationStatus } from '../../../shared/generations';
import type { LikenessConsent, ReviewHold } from '../../../shared/moderation';
import type { CredentialsReport } from '../../../shared/provenance';
import type { FinishAction, UpscaleResolution } from '../../../shared/finishing';
import type { ModelId } from '../../../shared/money/pricing';
import type { UploadKind } from '../../../shared/uploads';
import { storyboards } from './storyboards';
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
 * What an Extend job grows: a copy of the original's video (its own key, so the original may expire
 * or be deleted meanwhile), the crossfade between the two, in seconds, and which way it is made.
 */
export interface GenerationExtension {
  baseKey: string;
  crossfadeSeconds: number;
  /**
   * 'provider': the copy goes to the provider's own extend call, whose answer (the whole longer video)
   * is stored as is; 'join' (and rows made before this was recorded): a continuation from the last
   * frame, joined to the copy by the worker (src/server/jobs/extend-join.ts).
   */
  method?: 'provider' | 'join';
  /**
   * The provider task that made the original (as saved: `<endpoint>:<id>`), for an extend call that
   * names the original by the provider's own id of it (Kling's `video_id`, read from that task).
   */
  originalTask?: string;
}

/** One part of a film as the worker joins it: a copy of a take (its own key) with its trim, or a title card. */
export type GenerationFilmPart =
  | { kind: 'shot'; key: string; videoId: string; start: number; end: number; caption?: string }
  | { kind: 'card'; text: string; seconds: number; background: string };

/**
 * A film (issue 47): what the worker joins into one video (src/server/jobs/film-export.ts), copies
 * of its takes included so they may expire or be deleted meanwhile; null for every other job.
 */
export interface GenerationFilm {
  width: number;
  height: number;
  fps: number;
  parts: GenerationFilmPart[];
  transitions: ('cut' | 'crossfade' | 'fade-black')[];
  transitionSeconds: number;
  /** A copy of the uploaded music or voice track under the whole film. */
  bedKey?: string;
}

/**
 * A finishing action (issue 48): what the worker does to a copy of the original's video
 * (src/server/jobs/finish-video.ts), with copies of the recording or picture it takes, so the
 * original and the uploads may expire or be deleted meanwhile; null for every other job.
 */
export interface GenerationFinish {
  action: FinishAction;
  /** The finishing tool's id (GET /api/finishing). */
  tool: string;
  /** The model that made the original (its Content Credentials' creator). */
  sourceModel: string;
  /** The copy of the original's video. */
  sourceKey: string;
  /** The original's measured length in seconds, and whether it has sound. */
  sourceSeconds: number;
  sourceHasAudio: boolean;
  /** The copy of the recording (add sound, lip-sync). */
  audio?: { key: string; contentType: string };
  /** The copy of the picture to follow (restyle). */
  image?: { key: string; contentType: string };
  resolution?: UpscaleResolution;
  fps?: number;
  /** The description of the sound, or of the restyle. */
  prompt?: string;
}

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
    /** Made as a draft (issue 48): on the cheapest model and resolution the server had for the request. */
    isDraft: boolean('is_draft').notNull().default(false),
    settings: jsonb('settings').$type<AdvancedSettings>().notNull().default({}),
    inputs: jsonb('inputs').$type<GenerationInputs>().notNull().default({}),
    /** Keyframes: the end frame (`endImageFile`), for a model that takes one; `inputs.image` is then the start frame. */
    endImage: jsonb('end_image').$type<GenerationInput>(),
    /** Reference images (`referenceImageFiles`), in the order the request sent them. */
    referenceImages: jsonb('reference_images').$type<GenerationInput[]>().notNull().default([]),
    creditsUsedHundredths: integer('credits_used_hundredths').notNull().default(0),
    /**
     * What the provider is expected to bill for it, in millionths of a US dollar, from MODELS_CONFIG's
     * `providerCost` when the job was made (so a later price change does not rewrite history); null
     * when the operator gave the model no cost. The admin cost view reads it.
     */
    providerCostMicroUsd: bigint('provider_cost_micro_usd', { mode: 'number' }),
    /**
     * How it was paid: credits, a daily subscription generation, an extra-pack generation, unlimited,
     * by the operator (an administrator's free re-run), or nothing to pay (a film of videos paid for).
     */
    paidWith: text('paid_with')
      .$type<'credits' | 'daily' | 'pack' | 'unlimited' | 'operator' | 'free'>()
      .notNull()
      .default('credits'),
    progress: integer('progress').notNull().default(0),
    progressStage: text('progress_stage'),
    errorMessage: text('error_message'),
    /** When a failed generation's charge was given back (REFUND_FAILED_GENERATIONS or an administrator): at most once. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
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
    /**
     * VIDEO_RETENTION_HOURS after completion, stored then (a later change of the setting moves no
     * stored expiry); the output is deleted at this time. Null while unfinished, and while kept.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * The owner marked it kept (KEEP_VIDEOS_FOR allows them): no expiry, the sweeper never deletes its
     * files nor its record. Unkept, it expires VIDEO_RETENTION_HOURS later.
     */
    kept: boolean('kept').notNull().default(false),
    /**
     * Moves by one with every update of the row (`nextVersion`), under its row lock: of two copies
     * a browser gets (a live event, the answer to Generate), the one with the lower version is older.
     */
    version: integer('version').notNull().default(1),
    /**
     * Extend: the video this one grew from (the new record is the original joined to its continuation).
     * No foreign key: the original may be deleted or swept first, and the name stays as history.
     */
    parentId: uuid('parent_id'),
    /**
     * An administrator's free re-run: the failed job it runs again. Unique: a failed job is re-run
     * once (a double click or a retried request finds the first re-run); a re-run that fails may be
     * re-run in its turn. No foreign key, as for `parentId`.
     */
    rerunOf: uuid('rerun_of'),
    /** Variations: the jobs one request started together share this id. */
    groupId: uuid('group_id'),
    /**
     * The queue's order (fair between users): when the job's turn is. A user's first waiting job takes
     * its turn when it is made; each further unfinished job of theirs one turn (FAIR_TURN_SECONDS)
     * after their last, so other users' jobs made meanwhile go between them (src/server/modules/generations/generations.repository.ts).
     */
    queueKey: timestamp('queue_key', { withTimezone: true }).notNull().defaultNow(),
    /** Extend: what the worker joins the continuation to once it is rendered; null for every other job. */
    extension: jsonb('extension').$type<GenerationExtension>(),
    /** A film: the parts the worker joins; null for every other job. */
    film: jsonb('film').$type<GenerationFilm>(),
    /** A finishing action on the video named by `parentId`; null for every other job. */
    finish: jsonb('finish').$type<GenerationFinish>(),
    /**
     * What the stored video's Content Credentials say, read back from the signed file when it was
     * stored (the player's "Content Credentials" mark); null until then, and for videos made before.
     */
    credentials: jsonb('credentials').$type<CredentialsReport>(),
    /**
     * The uploader's confirmation that they are the person shown in an input, or have that person's
     * consent (issue 43): the statement they confirmed, its version and when; null when no input showed a face.
     */
    consent: jsonb('consent').$type<LikenessConsent>(),
    /**
     * Screening flagged the description for review (issue 43): the job waits, unclaimed, until an
     * administrator approves it (this goes back to null) or rejects it (it fails). Null otherwise.
     */
    heldForReview: jsonb('held_for_review').$type<ReviewHold>(),
    /**
     * Storyboards (issue 47): the board a take or a film was made for; a take also names its shot
     * (shots live in the board's row). Deleting the board keeps its videos, without the link.
     */
    storyboardId: uuid('storyboard_id').references(() => storyboards.id, { onDelete: 'set null' }),
    shotId: uuid('shot_id'),
  },
  (t) => [
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('generations_rerun_of_idx').on(t.rerunOf),
    index('generations_queue_idx')
      .on(t.status, t.runAfter)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // Recent job durations give queue estimates (decision 011).
    // The fair claim's order (src/server/jobs/queue.repository.ts): one index walk to the next job.
    index('generations_fair_queue_idx')
      .on(t.queueKey)
      .where(sql`${t.status} in ('pending', 'processing')`),
    index('generations_completed_idx')
      .on(t.completedAt)
      .where(sql`${t.status} = 'completed'`),
    index('generations_storyboard_idx')
      .on(t.storyboardId)
      .where(sql`${t.storyboardId} is not null`),
    index('generations_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.outputKey} is not null`),
  ],
);
export type GenerationRow = typeof generations.$inferSelect;

/** What every update of a generation sets besides its own fields: the row's next version. */
export const nextVersion = () => ({ version: sql<number>`${generations.version} + 1` });
