import { z } from 'zod';

/**
 * A model id: built-in ones ('veo3', 'kling-v2v', 'local', 'fal-veo3', 'comfyui-wan22-ti2v-5b', ...)
 * and the ids of an operator's own ComfyUI templates. The server's catalogue decides which exist.
 */
export const modelIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be a model id from GET /api/models');
export type ModelId = string;

export const ENGINE_KINDS = ['local', 'veo', 'kling', 'fal', 'replicate', 'comfyui'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export const MODEL_INPUT_KINDS = ['text', 'image', 'video', 'audio'] as const;
export type ModelInputKind = (typeof MODEL_INPUT_KINDS)[number];

export const ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const RESOLUTIONS = ['480p', '720p', '1080p'] as const;

/** GET /api/models: one model of the catalogue, whether or not this server can run it now. */
export const modelInfoSchema = z.object({
  id: modelIdSchema,
  /** Which engine runs it: the local preview engine, a provider, or the operator's ComfyUI. */
  engine: z.enum(ENGINE_KINDS),
  name: z.string(),
  description: z.string(),
  available: z.boolean(),
  /** Why it is unavailable; null when available. */
  reason: z.string().nullable(),
  /** What it takes: text always; image, video and audio when it can use them. */
  inputs: z.array(z.enum(MODEL_INPUT_KINDS)),
  /** Durations in seconds it renders; the request's duration is moved to the nearest. */
  durations: z.array(z.number()),
  aspectRatios: z.array(z.enum(ASPECT_RATIOS)),
  resolutions: z.array(z.enum(RESOLUTIONS)),
  /** Whether it makes sound itself. */
  sound: z.boolean(),
  /** Credits one standard generation costs (before add-ons such as audio), and in economy mode. */
  credits: z.number(),
  economyCredits: z.number(),
  isDefault: z.boolean(),
  /** True for the local FFmpeg engine: a preview renderer, not an AI model. */
  isPreview: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;
export const modelListSchema = z.object({ models: z.array(modelInfoSchema) });

/** The supported duration nearest to the one asked for (ties go to the longer one). */
export function nearestOf(options: readonly number[], requested: number): number {
  let best = options[0] ?? requested;
  for (const option of options) {
    if (Math.abs(option - requested) <= Math.abs(best - requested)) best = option;
  }
  return best;
}

/** Whether a model takes an input kind (every model takes text). */
export const takesInput = (model: Pick<ModelInfo, 'inputs'>, kind: ModelInputKind) => model.inputs.includes(kind);
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type Resolution = (typeof RESOLUTIONS)[number];
