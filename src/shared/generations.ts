import { z } from 'zod';
import { MODEL_IDS, type ModelId } from './money/pricing';
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
  prompt: z.string().max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`).check(multiLine).default(''),
  jsonPrompt: z.string().max(MAX_ADVANCED_SETTINGS_LENGTH).check(multiLine).nullish(),
  imageFile: optionalRef,
  videoFile: optionalRef,
  audioFile: optionalRef,
  hasAudio: z.boolean().default(false),
  isEconomy: z.boolean().default(false),
  duration: z.number().int().min(1).max(60).default(DEFAULT_GENERATION_DURATION),
  model: z.enum(MODEL_IDS).optional(),
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
    return { ok: false, message: `Advanced settings: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'}` };
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
  /** When a worker first picked it up (elapsed time counts from here). */
  startedAt: z.string().nullable().optional(),
  /** Waiting jobs: 1 is next, counting every user's waiting jobs. */
  queuePosition: z.number().nullable().optional(),
  /** Estimates from recent job durations (labelled as estimates): when a waiting job should start, and when it should be ready. */
  estimatedStartAt: z.string().nullable().optional(),
  estimatedReadyAt: z.string().nullable().optional(),
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
});
export type GenerationJob = z.infer<typeof generationJobSchema>;

/** GET /api/models: what this server can render with. */
export const modelInfoSchema = z.object({
  id: z.enum(MODEL_IDS),
  name: z.string(),
  description: z.string(),
  available: z.boolean(),
  /** Why it is unavailable; null when available. */
  reason: z.string().nullable(),
  /** Durations in seconds it renders; the request's duration is moved to the nearest. */
  durations: z.array(z.number()),
  isDefault: z.boolean(),
  /** True for the local FFmpeg engine: a preview renderer, not an AI model. */
  isPreview: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;
export const modelListSchema = z.object({ models: z.array(modelInfoSchema) });

/** Durations each engine renders (seconds). */
export const ENGINE_DURATIONS: Record<ModelId, readonly number[]> = {
  local: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  veo3: [4, 6, 8],
  'kling-v2v': [5, 10],
};

/** The supported duration nearest to the one asked for (ties go to the longer one). */
export function nearestDuration(model: ModelId, requested: number): number {
  const options = ENGINE_DURATIONS[model];
  let best = options[0] ?? requested;
  for (const option of options) {
    if (Math.abs(option - requested) <= Math.abs(best - requested)) best = option;
  }
  return best;
}

export const insufficientCreditsMessage = (cost: number, credits: number) => `Need ${cost} credits. You have ${credits}.`;

/** Words that switch the audio on by themselves (spec section 4). */
export const AUDIO_TRIGGER_WORDS = ['music', 'soundtrack', 'voice', 'singing', 'audio', 'sound'] as const;

/** True when the description mentions one of the audio words (whole words, any case). */
export function mentionsAudio(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.some((word) => (AUDIO_TRIGGER_WORDS as readonly string[]).includes(word));
}

/** The prompt sent to the server: the description, with the audio description appended when audio is on. */
export function composePrompt(description: string, audio: { enabled: boolean; description: string }): string {
  const text = description.trim();
  const sound = audio.description.trim();
  return audio.enabled && sound ? `${text}\n\nAudio: ${sound}` : text;
}
