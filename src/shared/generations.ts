import { z } from 'zod';
import { ASPECT_RATIOS, CAMERA_MOVES, modelIdSchema, RESOLUTIONS } from './models';
import { multiLine, singleLine } from './text';
import { credentialsReportSchema } from './provenance';

/** Status values of a generation (docs/product-rules.md, Statuses); anything else displays as Unknown. */
export const GENERATION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

/** The client sends 10 (docs/product-rules.md, The generator); the engine renders the supported duration nearest to it. */
export const DEFAULT_GENERATION_DURATION = 10;
/** At most this many unfinished (pending or processing) jobs per user. */
export const MAX_UNFINISHED_JOBS = 3;
/** Longest description accepted (Kling's own limit is 2,500 characters). */
export const MAX_PROMPT_LENGTH = 2000;
/** One request may start this many variations (jobs with different seeds) at once. */
export const MAX_VARIATIONS = 4;
export const MAX_ADVANCED_SETTINGS_LENGTH = 4000;
/** No model takes more reference images than this (GET /api/models says each model's own limit). */
export const MAX_REFERENCE_IMAGES = 8;

export const PROMPT_REQUIRED_MESSAGE = 'Please provide a text description';
export const INVALID_SETTINGS_MESSAGE = 'Advanced settings must be valid JSON';

const optionalRef = z
  .string()
  .max(1000)
  .check(singleLine)
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

/**
 * The known keys of the settings that reach the engine; others are ignored. The generator sends the
 * shape and the camera as the request's own fields (`aspectRatio`, `resolution`, `cameraMove`) and
 * keeps seed and negative prompt here; older clients may still send all of them here.
 */
export const advancedSettingsSchema = z.object({
  aspectRatio: z.enum(ASPECT_RATIOS).optional(),
  negativePrompt: z.string().max(1000).check(multiLine).optional(),
  seed: z.number().int().min(0).max(4_294_967_295).optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  cameraMove: z.enum(CAMERA_MOVES).optional(),
});
export type AdvancedSettings = z.infer<typeof advancedSettingsSchema>;

/** Longest audio description (the generator's box takes this many characters). */
export const MAX_AUDIO_DESCRIPTION_LENGTH = 300;

/**
 * The AI results a generation uses, by the ids the enhance and analyse answers returned: naming one
 * is asking to be charged for it (decision 016). An enhanced prompt made from an image analysis's
 * suggestion names both.
 */
export const aiResultIdsSchema = z.strictObject({
  promptEnhancement: z.uuid().optional(),
  imageAnalysis: z.uuid().optional(),
});
export type AiResultIds = z.infer<typeof aiResultIdsSchema>;

/** What `goneInputs` names: an input kind, the end frame, or one reference image. */
export const GONE_INPUT_KINDS = ['image', 'video', 'audio', 'endImage', 'referenceImage'] as const;
export type GoneInputKind = (typeof GONE_INPUT_KINDS)[number];

/** What both request shapes share: the inputs, the switches, the duration and the model. */
const generationFields = {
  imageFile: optionalRef,
  videoFile: optionalRef,
  audioFile: optionalRef,
  /** Keyframes: the last frame, for a model with `endFrame` (imageFile is then the first frame). */
  endImageFile: optionalRef,
  /** Reference images (subject or character consistency), up to the model's `referenceImages`. */
  referenceImageFiles: z
    .array(z.string().min(1).max(1000).check(singleLine))
    .max(MAX_REFERENCE_IMAGES, `must have at most ${MAX_REFERENCE_IMAGES} images`)
    .default([]),
  /**
   * A character of the user's library (GET /api/characters): its pictures go to the model's reference
   * images where it takes them, else its name and description into the prompt (GET /api/models `character`).
   */
  characterId: z.uuid('must be the id of a character in your library').nullish(),
  hasAudio: z.boolean().default(false),
  isEconomy: z.boolean().default(false),
  /**
   * A draft (issue 48): the server makes it on the cheapest model and resolution it has for the request
   * (`draftChoice` in src/shared/drafts.ts), whatever `model` and `resolution` say; finish the take you like.
   */
  draft: z.boolean().default(false),
  /**
   * The uploader confirms they are the person an input shows, or have that person's consent
   * (LIKENESS_CONSENT_STATEMENT); required when an image input shows a face (422 consent_required).
   */
  consentToLikeness: z.boolean().default(false),
  duration: z.number().int().min(1).max(60).default(DEFAULT_GENERATION_DURATION),
  model: modelIdSchema.optional(),
  /** The video's shape and camera (GET /api/models says what each model takes); absent: the model's default, no move. */
  aspectRatio: z.enum(ASPECT_RATIOS).nullish(),
  resolution: z.enum(RESOLUTIONS).nullish(),
  cameraMove: z.enum(CAMERA_MOVES).nullish(),
};

/**
 * POST /api/video-generation as this app's generator sends it: the user's description and audio
 * description apart (the server joins them into the engine's prompt), the settings as an object,
 * and the AI results used by id. A description is required (checked by the server, with the same
 * answer as a blank prompt).
 */
export const generationRequestSchema = z.strictObject({
  description: z
    .string()
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .optional(),
  /** Used only while hasAudio is on (the generator keeps the box's text when the switch goes off). */
  audioDescription: z
    .string()
    .max(MAX_AUDIO_DESCRIPTION_LENGTH, `must be at most ${MAX_AUDIO_DESCRIPTION_LENGTH} characters`)
    .check(multiLine)
    .optional(),
  // A request's settings refuse keys they do not know, like the rest of the body (the Advanced
  // Settings text the generator reads drops them, as the spec says, before sending).
  settings: z.strictObject(advancedSettingsSchema.shape).optional(),
  aiResultIds: aiResultIdsSchema.optional(),
  ...generationFields,
  /** Variations: this many jobs with different seeds, charged together (all or none), shown as one group. */
  variations: z.number().int().min(1).max(MAX_VARIATIONS).default(1),
  /** Compare: the same request on this second model too, side by side (two jobs, one group, each at its model's price). */
  compareModel: modelIdSchema.nullish(),
});
export type GenerationRequest = z.input<typeof generationRequestSchema>;

/**
 * The older shape (the specification's): `prompt` with the audio description already appended,
 * the Advanced Settings as JSON text, and the AI use as two flags the server checks against the
 * texts it produced (decision 012). Still accepted from other clients, never mixed with the above.
 */
const legacyGenerationFields = {
  prompt: z
    .string()
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .optional(),
  jsonPrompt: z.string().max(MAX_ADVANCED_SETTINGS_LENGTH).check(multiLine).nullish(),
  /** The description is an enhanced prompt the server made for this user (charged; verified, decision 012). */
  usedPromptEnhancement: z.boolean().optional(),
  /** The description is (made from) the image analysis's suggested prompt (charged; verified, decision 012). */
  usedImageAnalysis: z.boolean().optional(),
};

/** POST /api/video-generation: either shape (the server refuses a body that mixes them). */
export const createGenerationSchema = generationRequestSchema.extend(legacyGenerationFields);
export type CreateGeneration = z.input<typeof createGenerationSchema>;

export type SettingsResult = { ok: true; settings: AdvancedSettings } | { ok: false; message: string };

/** Checks a settings object: a wrong value of a known key is refused naming the key; other keys are dropped. */
export function checkAdvancedSettings(value: unknown): SettingsResult {
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
  return checkAdvancedSettings(value);
}

/**
 * A status as clients read it: the server sends the four known values, but a client must still
 * show a value it does not know (a newer server) as 'Unknown' rather than fail (docs/product-rules.md, Statuses).
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
  /**
   * The path of its shareable watch page (/watch/…: the video and a Report link, for anyone with
   * the link) while the video lives; null otherwise (and from a server older than the watch page).
   */
  watchPath: z.string().nullable().default(null),
  createdAt: z.string(),
  /** When the video's file is deleted (VIDEO_RETENTION_HOURS after completion); null while unfinished or kept. */
  expiresAt: z.string().nullable(),
  /** The owner kept it (KEEP_VIDEOS_FOR): no expiry, never deleted by the sweeper. */
  kept: z.boolean().optional(),
  /** Made as a draft (on the cheapest model and resolution): the player offers to finish this take. */
  isDraft: z.boolean().optional(),
  progress: z.number(),
  progressStage: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** What Remix fills in: the economy switch, the Advanced Settings, and the inputs whose files still exist (VIDEO_RETENTION_HOURS). */
  isEconomy: z.boolean().optional(),
  settings: advancedSettingsSchema.optional(),
  inputs: z
    .object({
      image: z.string().optional(),
      video: z.string().optional(),
      audio: z.string().optional(),
      /** Keyframes: the end frame (the image is then the start frame). */
      endImage: z.string().optional(),
      /** Reference images, in the order they were sent. */
      referenceImages: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * The inputs whose files are gone (past their retention, or deleted), one entry per file, so Remix
   * can say what it could not fill in; absent when none are.
   */
  goneInputs: z.array(z.enum(GONE_INPUT_KINDS)).optional(),
  /** When a worker first picked it up (elapsed time counts from here). */
  startedAt: z.string().nullable().optional(),
  /** Waiting jobs: 1 is next, counting every user's waiting jobs. */
  queuePosition: z.number().nullable().optional(),
  /** Estimates from recent job durations (labelled as estimates): when a waiting job should start, and when it should be ready. */
  estimatedStartAt: z.string().nullable().optional(),
  estimatedReadyAt: z.string().nullable().optional(),
  /** Moves with every change of the row: of two copies of a record, the lower version is the older. */
  version: z.number().optional(),
  /** Extend: the video this one grew from (this video is it joined to its continuation). */
  parentId: z.string().nullable().optional(),
  /** Variations: the jobs one request started share this id. */
  groupId: z.string().nullable().optional(),
  /** What the video's Content Credentials say, as read back from the signed file; null before it is stored. */
  credentials: credentialsReportSchema.nullable().optional(),
});
export type GenerationRecord = z.infer<typeof generationRecordSchema>;

/** The answer to Generate: the (first) record, and every record the request started (variations). */
export const createdGenerationSchema = generationRecordSchema.extend({ group: z.array(generationRecordSchema) });
export type CreatedGenerationRecord = z.infer<typeof createdGenerationSchema>;

/** The most seconds of crossfade between a video and its continuation (Extend). */
export const MAX_EXTEND_CROSSFADE_SECONDS = 1;

/** POST /api/video-generation/{id}/extend: all optional (the original's prompt and length by default, no crossfade). */
export const extendGenerationSchema = z.strictObject({
  prompt: z
    .string()
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null)),
  duration: z.number().int().min(1).max(60).nullish(),
  crossfade: z.number().min(0).max(MAX_EXTEND_CROSSFADE_SECONDS).default(0),
});
export type ExtendGeneration = z.input<typeof extendGenerationSchema>;

/** POST /api/video-generation/{id}/keep: keep the video past VIDEO_RETENTION_HOURS, or stop keeping it. */
export const keepVideoSchema = z.object({ keep: z.boolean() }).strict();
export type KeepVideo = z.infer<typeof keepVideoSchema>;

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
  `Need ${cost} ${cost === 1 ? 'credit' : 'credits'}. You have ${credits}.`;

/** Words that switch the audio on by themselves (docs/product-rules.md, The generator). */
export const AUDIO_TRIGGER_WORDS = ['music', 'soundtrack', 'voice', 'singing', 'audio', 'sound'] as const;

/** True when the description mentions one of the audio words (whole words, any case). */
export function mentionsAudio(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.some((word) => (AUDIO_TRIGGER_WORDS as readonly string[]).includes(word));
}

/** The first audio word the description mentions (whole words, any case), or null. */
export function audioWordIn(text: string): string | null {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.find((word) => (AUDIO_TRIGGER_WORDS as readonly string[]).includes(word)) ?? null;
}
