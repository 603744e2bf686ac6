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

/** How a model keeps a character (ModelInfo `character`). */
export const CHARACTER_MODES = ['references', 'description'] as const;
export type CharacterMode = (typeof CHARACTER_MODES)[number];

export const ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const RESOLUTIONS = ['480p', '720p', '1080p'] as const;

/** Camera moves a request may ask for (`cameraMove`); the catalogue says which each model honours. */
export const CAMERA_MOVES = [
  'static',
  'pan-left',
  'pan-right',
  'tilt-up',
  'tilt-down',
  'dolly-in',
  'dolly-out',
  'orbit',
  'crane',
  'handheld',
] as const;
export type CameraMove = (typeof CAMERA_MOVES)[number];
export const CAMERA_MOVE_LABELS: Record<CameraMove, string> = {
  static: 'Static',
  'pan-left': 'Pan left',
  'pan-right': 'Pan right',
  'tilt-up': 'Tilt up',
  'tilt-down': 'Tilt down',
  'dolly-in': 'Dolly in',
  'dolly-out': 'Dolly out',
  orbit: 'Orbit',
  crane: 'Crane',
  handheld: 'Handheld',
};
export const ASPECT_RATIO_LABELS: Record<(typeof ASPECT_RATIOS)[number], string> = {
  '16:9': 'Landscape 16:9',
  '9:16': 'Portrait 9:16',
  '1:1': 'Square 1:1',
};

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
  /** Whether it takes an end frame (`endImageFile`) besides the start image. */
  endFrame: z.boolean(),
  /** Camera moves (`cameraMove`) it honours; empty when it takes none. */
  cameraMoves: z.array(z.enum(CAMERA_MOVES)),
  /** How many reference images it takes (0: none). */
  referenceImages: z.number().int(),
  /**
   * Whether it takes reference images only without a start or end frame (its provider takes them on
   * a call of their own, as fal's Veo 3.1 does): a request with references and an image or end frame
   * is refused, and the generator offers one or the other.
   */
  referencesAlone: z.boolean(),
  /**
   * How it keeps a character of the user's library (issue 47): 'references', the character's pictures
   * go to its reference images; 'description', its name and description go into the prompt.
   */
  character: z.enum(CHARACTER_MODES),
  /**
   * Credits one standard generation costs (before add-ons such as audio), and in economy mode; per
   * second of video when `pricePer` is 'second'.
   */
  credits: z.number(),
  economyCredits: z.number(),
  pricePer: z.enum(['video', 'second']),
  /**
   * Standard credits at a resolution, replacing `credits` there (per second when `pricePer` is
   * 'second'); economy mode costs the same share of it as `economyCredits` is of `credits`.
   */
  resolutionCredits: z.partialRecord(z.enum(RESOLUTIONS), z.number()),
  isDefault: z.boolean(),
  /** True for the local FFmpeg engine: a preview renderer, not an AI model. */
  isPreview: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** A model keeps a character by its pictures where it takes reference images, else by its description. */
export function characterModeOf(model: Pick<ModelInfo, 'referenceImages'>): CharacterMode {
  return model.referenceImages > 0 ? 'references' : 'description';
}
export const modelListSchema = z.object({ models: z.array(modelInfoSchema) });

/** The supported duration nearest to the one asked for (ties go to the longer one). */
export function nearestOf(options: readonly number[], requested: number): number {
  let best = options[0] ?? requested;
  for (const option of options) {
    if (Math.abs(option - requested) <= Math.abs(best - requested)) best = option;
  }
  return best;
}

/**
 * The model a generator request is for: the one the user chose, else the one the catalogue marks
 * `isDefault` (the server's choice, the same one a request without a model gets).
 */
export function chosenModel<T extends Pick<ModelInfo, 'id' | 'isDefault'>>(
  models: readonly T[] | undefined,
  chosen: string | null | undefined,
): T | undefined {
  return models?.find((m) => (chosen ? m.id === chosen : m.isDefault));
}

/** The aspect ratio a request that names none gets: the model's first. */
export function defaultAspectRatio(model: Pick<ModelInfo, 'aspectRatios'>): AspectRatio {
  return model.aspectRatios[0] ?? '16:9';
}

/**
 * The resolution a request that names none gets: in economy mode the model's lowest, else its
 * lowest of 720p or more (its highest when it has none).
 */
export function defaultResolution(model: Pick<ModelInfo, 'resolutions'>, isEconomy: boolean): Resolution {
  const sorted = RESOLUTIONS.filter((r) => model.resolutions.includes(r));
  if (isEconomy) return sorted[0] ?? '720p';
  return sorted.find((r) => r !== '480p') ?? sorted.at(-1) ?? '720p';
}

/**
 * What a video is rendered and priced at: the asked aspect ratio and resolution, else the model's
 * defaults, and the duration the model renders nearest to the one asked. The server charges this
 * shape, the estimate prices it and the generator shows its price.
 */
export function renderedShape(
  model: Pick<ModelInfo, 'aspectRatios' | 'resolutions' | 'durations'>,
  asked: { aspectRatio?: AspectRatio | null; resolution?: Resolution | null; isEconomy: boolean; duration: number },
): { aspectRatio: AspectRatio; resolution: Resolution; duration: number } {
  return {
    aspectRatio: asked.aspectRatio ?? defaultAspectRatio(model),
    resolution: asked.resolution ?? defaultResolution(model, asked.isEconomy),
    duration: nearestOf(model.durations, asked.duration),
  };
}

/** Whether a model takes an input kind (every model takes text). */
export const takesInput = (model: Pick<ModelInfo, 'inputs'>, kind: ModelInputKind) => model.inputs.includes(kind);
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export type Resolution = (typeof RESOLUTIONS)[number];
