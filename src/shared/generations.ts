import { z } from 'zod';
import { modelIdSchema } from './models';
import { multiLine, singleLine } from './text';

/** Status values of a generation (spec section 4); anything else displays as Unknown. */
export const GENERATION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

/** The client sends 10 (spec section 9); the engine renders the supported duration nearest to it. */
export const DEFAULT_GENERATION_DURATION = 10;
/** At most this many unfinished (pending or processing) jobs per user. */
export const MAX_UNFINISHED_JOBS = 3;
/** Longest description accepted (Kling's own limit is 2,500 characters). */
export const MAX_PROMPT_LENGTH = 2000;
export const MAX_ADVANCED_SETTINGS_LENGTH = 4000;

export const PROMPT_REQUIRED_MESSAGE = 'Please provide a text description';
export const INVALID_SETTINGS_MESSAGE = 'Advanced settings must be valid JSON';

const optionalRef = z
  .string()
  .max(1000)
  .check(singleLine)
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

/** POST /api/video-generation (spec section 7), with the model the server may choose when absent. */
export const createGenerationSchema = z.object({
  prompt: z
    .string()
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .default(''),
  jsonPrompt: z.string().max(MAX_ADVANCED_SETTINGS_LENGTH).check(multiLine).nullish(),
  imageFile: optionalRef,
  videoFile: optionalRef,
  audioFile: optionalRef,
  hasAudio: z.boolean().default(false),
  isEconomy: z.boolean().default(false),
  /** The description is an enhanced prompt the server made for this user (charged; verified, decision 012). */
  usedPromptEnhancement: z.boolean().default(false),
  /** The description is (made from) the image analysis's suggested prompt (charged; verified, decision 012). */
  usedImageAnalysis: z.boolean().default(false),
  duration: z.number().int().min(1).max(60).default(DEFAULT_GENERATION_DURATION),
  model: modelIdSchema.optional(),
});
export type CreateGeneration = z.input<typeof createGenerationSchema>;

/** The known keys of the Advanced Settings JSON that reach the engine; others are ignored. */
export const advancedSettingsSchema = z.object({
  aspectRatio: z.enum(['16:9', '9:16', '1:1']).optional(),
  negativePrompt: z.string().max(1000).check(multiLine).optional(),
  seed: z.number().int().min(0).max(4_294_967_295).optional(),
  resolution: z.enum(['480p', '720p', '1080p']).optional(),
});
export type AdvancedSettings = z.infer<typeof advancedSettingsSchema>;

export type SettingsResult = { ok: true; settings: AdvancedSettings } | { ok: false; message: string };

/**
 * Reads the Advanced Settings text: blank is no settings; otherwise a JSON object whose known keys
 * are checked (a wrong value names its key) and whose other keys are ignored.
 */
export function parseAdvancedSettings(text: string | null | undefined): SettingsResult {
  if (!text?.trim()) return { ok: true, settings: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: INVALID_SETTINGS_MESSAGE };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: INVALID_SETTINGS_MESSAGE };
  }
  const parsed = advancedSettingsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `Advanced settings: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'}`,
    };
  }
  return { ok: true, settings: parsed.data };
}

/**
 * A status as clients read it: the server sends the four known values, but a client must still
 * show a value it does not know (a newer server) as 'Unknown' rather than fail (spec section 4).
 */
const statusValueSchema = z.union([z.enum(GENERATION_STATUSES), z.string()]);

/** GET /api/video-generation: the record view. */
export const generationRecordSchema = z.object({
  id: z.string(),
  prompt: z.string(),
  status: statusValueSchema,
  creditsUsed: z.number(),
  duration: z.number(),
  model: z.string(),
  hasAudio: z.boolean(),
  outputVideoUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  progress: z.number(),
  progressStage: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** What Remix fills in: the economy switch, the Advanced Settings, and the inputs whose files still exist (24 hours). */
  isEconomy: z.boolean().optional(),
  settings: advancedSettingsSchema.optional(),
  inputs: z
    .object({ image: z.string().optional(), video: z.string().optional(), audio: z.string().optional() })
    .optional(),
  /** When a worker first picked it up (elapsed time counts from here). */
  startedAt: z.string().nullable().optional(),
  /** Waiting jobs: 1 is next, counting every user's waiting jobs. */
  queuePosition: z.number().nullable().optional(),
  /** Estimates from recent job durations (labelled as estimates): when a waiting job should start, and when it should be ready. */
  estimatedStartAt: z.string().nullable().optional(),
  estimatedReadyAt: z.string().nullable().optional(),
  /** Moves with every change of the row: of two copies of a record, the lower version is the older. */
  version: z.number().optional(),
});
export type GenerationRecord = z.infer<typeof generationRecordSchema>;

/** GET /api/video-generation-jobs and /recent: the job view of the same rows. */
export const generationJobSchema = z.object({
  id: z.string(),
  textPrompt: z.string(),
  status: statusValueSchema,
  createdAt: z.string(),
  creditsUsed: z.number(),
  duration: z.number(),
  hasAudio: z.boolean(),
  progress: z.number(),
  errorMessage: z.string().nullable(),
  outputVideoUrl: z.string().nullable(),
  /** When the video is (or was) deleted: past it a completed job is Expired. */
  expiresAt: z.string().nullable().optional(),
  /** The record's version (see generationRecordSchema). */
  version: z.number().optional(),
});
export type GenerationJob = z.infer<typeof generationJobSchema>;

/** GET /api/models lives in ./models (the catalogue); re-exported for the existing imports. */
export { type ModelInfo, modelInfoSchema, modelListSchema } from './models';

export const insufficientCreditsMessage = (cost: number, credits: number) =>
  `Need ${cost} credits. You have ${credits}.`;

/** Words that switch the audio on by themselves (spec section 4). */
export const AUDIO_TRIGGER_WORDS = ['music', 'soundtrack', 'voice', 'singing', 'audio', 'sound'] as const;

/** True when the description mentions one of the audio words (whole words, any case). */
export function mentionsAudio(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.some((word) => (AUDIO_TRIGGER_WORDS as readonly string[]).includes(word));
}

/** What joins the description and the audio description in the prompt sent. */
export const AUDIO_DESCRIPTION_SEPARATOR = '\n\nAudio: ';

/** The first audio word the description mentions (whole words, any case), or null. */
export function audioWordIn(text: string): string | null {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.find((word) => (AUDIO_TRIGGER_WORDS as readonly string[]).includes(word)) ?? null;
}

/** The prompt sent to the server: the description, with the audio description appended when audio is on. */
export function composePrompt(description: string, audio: { enabled: boolean; description: string }): string {
  const text = description.trim();
  const sound = audio.description.trim();
  return audio.enabled && sound ? `${text}${AUDIO_DESCRIPTION_SEPARATOR}${sound}` : text;
}
