import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ASPECT_RATIOS,
  CAMERA_MOVES,
  type AspectRatio,
  type CameraMove,
  type EngineKind,
  type ModelInputKind,
  RESOLUTIONS,
  type Resolution,
} from '../../shared/models';
import { DEFAULT_MODEL_PRICE, type ModelPrice } from '../../shared/money/pricing';
import type { FalFamily } from './fal-engine';
import { finishingOverridesSchema } from './finishing';
import type { ReplicateFamily } from './replicate-engine';

/** One model the product knows, whether or not this server can run it. */
export interface ModelDefinition {
  id: string;
  engine: EngineKind;
  name: string;
  description: string;
  inputs: ModelInputKind[];
  durations: number[];
  aspectRatios: AspectRatio[];
  resolutions: Resolution[];
  sound: boolean;
  /** Takes an end frame (`endImageFile`) besides the start image. */
  endFrame: boolean;
  /** Camera moves it honours: Kling's own camera control, the local engine's motion, else prompt phrasing (camera.ts). */
  cameraMoves: CameraMove[];
  /** How many reference images it takes (0: none); the provider's documented limit. */
  referenceImages: number;
  /**
   * Its provider takes reference images on a call of their own, without a start or end frame (fal's
   * Veo 3.1 reference-to-video): a request with both is refused.
   */
  referencesAlone?: boolean;
  isPreview: boolean;
  /** Why it cannot run without its provider's keys or address. */
  missing: string;
  fal?: {
    family: FalFamily;
    textEndpoint: string;
    imageEndpoint: string | null;
    /** The first-last-frame endpoint, when it is not the image endpoint itself (Kling's takes `tail_image_url`). */
    endFrameEndpoint?: string;
    /** The reference-to-video endpoint. */
    referenceEndpoint?: string;
    /** The provider's own extend call, for Extend (extend.service.ts), and the input videos it documents taking. */
    extend?: ProviderExtend;
  };
  replicate?: { family: ReplicateFamily; slug: string };
  /** Kling's own API (kling-engine.ts): its extend call, for Extend. */
  kling?: { extend: ProviderExtend };
}

/**
 * A provider's own extend call: it takes the original video and answers one video that is the
 * original with its continuation, so no join is needed. Only an original within the documented
 * limits goes there; any other is extended from its last frame and joined (extend-join.ts).
 */
export interface ProviderExtend {
  endpoint: string;
  /**
   * The call names the original by the provider's own id of it (Kling's `video_id`), not by a link to
   * our copy: only an original this provider made whole, with one of these endpoints (its saved
   * provider task `<endpoint>:<id>`), can go there. Unset: the call takes the video itself (`video_url`).
   */
  madeBy?: string[];
  /** The longest input video the call takes, in seconds. */
  maxInputSeconds: number;
  /** How many seconds the call adds (it takes no length). */
  addsSeconds: number;
  resolutions: Resolution[];
  aspectRatios: AspectRatio[];
}

const ALL: AspectRatio[] = ['16:9', '9:16', '1:1'];
const WIDE_TALL: AspectRatio[] = ['16:9', '9:16'];
const NO_FAL = 'Not available on this server: it has no fal.ai key (FAL_KEY).';
const NO_REPLICATE = 'Not available on this server: it has no Replicate token (REPLICATE_API_TOKEN).';

/** What a model makes; the same model family makes the same on every provider that hosts it. */
type Capabilities = Pick<
  ModelDefinition,
  | 'inputs'
  | 'durations'
  | 'aspectRatios'
  | 'resolutions'
  | 'sound'
  | 'endFrame'
  | 'cameraMoves'
  | 'referenceImages'
  | 'referencesAlone'
>;
/** Every move: AI models take them as the documented prompt phrasing (camera.ts), Kling's API as camera control. */
const ALL_MOVES: CameraMove[] = [...CAMERA_MOVES];
type About = Pick<ModelDefinition, 'id' | 'name' | 'description'>;

const VEO_3: Capabilities = {
  inputs: ['text', 'image'],
  durations: [4, 6, 8],
  aspectRatios: WIDE_TALL,
  resolutions: ['720p', '1080p'],
  sound: true,
  endFrame: false,
  cameraMoves: ALL_MOVES,
  referenceImages: 0,
};
const KLING_2_1_MASTER: Capabilities = {
  inputs: ['text', 'image'],
  durations: [5, 10],
  aspectRatios: ALL,
  resolutions: ['1080p'],
  sound: false,
  endFrame: false,
  cameraMoves: ALL_MOVES,
  referenceImages: 0,
};
const OPEN_WEIGHT: Capabilities = {
  inputs: ['text', 'image'],
  durations: [5],
  aspectRatios: ALL,
  resolutions: ['720p'],
  sound: false,
  endFrame: false,
  cameraMoves: ALL_MOVES,
  referenceImages: 0,
};

function falModel(
  { id, name, description }: About,
  capabilities: Capabilities,
  fal: NonNullable<ModelDefinition['fal']>,
): ModelDefinition {
  return { id, engine: 'fal', name, description, ...capabilities, isPreview: false, missing: NO_FAL, fal };
}

function replicateModel(
  { id, name, description }: About,
  capabilities: Capabilities,
  replicate: NonNullable<ModelDefinition['replicate']>,
): ModelDefinition {
  return {
    id,
    engine: 'replicate',
    name,
    description,
    ...capabilities,
    isPreview: false,
    missing: NO_REPLICATE,
    replicate,
  };
}

/** The built-in models, in the order the generator lists them. ComfyUI templates are added after these. */
export const BUILT_IN_MODELS: ModelDefinition[] = [
  {
    id: 'veo3',
    engine: 'veo',
    name: 'Veo 3',
    description: "Google's video model with native sound, through the Gemini API.",
    ...VEO_3,
    isPreview: false,
    missing: 'Not available on this server: it has no Google Gemini API key.',
  },
  {
    id: 'kling-v2v',
    engine: 'kling',
    name: 'Kling-V2V',
    description: 'Kling AI: text-to-video, image-to-video and video-to-video editing.',
    inputs: ['text', 'image', 'video'],
    durations: [5, 10],
    aspectRatios: ALL,
    resolutions: ['720p', '1080p'],
    sound: false,
    endFrame: false,
    cameraMoves: ALL_MOVES,
    referenceImages: 0,
    isPreview: false,
    missing: 'Not available on this server: it has no Kling API keys.',
    // Kling's POST /v1/videos/video-extend takes `video_id`, "the ID of the video to be extended. Supports
    // videos generated by text-to-video, image-to-video, and previous video extension operations. Cannot
    // exceed 3 minutes total duration after extension" (https://docs.comfy.org/built-in-nodes/KlingVideoExtendNode;
    // the schema at https://docs.comfy.org/ja/development/comfy-router/models/kling/videos-video-extend/code);
    // its answer is the whole extended video. Each call adds about 4-5 s: a 5 s continuation, priced as
    // such, from an original of at most 175 s (180 s after). The shape is the original's own.
    kling: {
      extend: {
        endpoint: 'v1/videos/video-extend',
        madeBy: ['text2video', 'image2video', 'video-extend'],
        maxInputSeconds: 175,
        addsSeconds: 5,
        resolutions: ['720p', '1080p'],
        aspectRatios: ALL,
      },
    },
  },
  falModel(
    { id: 'fal-veo3', name: 'Veo 3 (fal.ai)', description: "Google's Veo 3 with native sound, through fal.ai." },
    VEO_3,
    { family: 'veo', textEndpoint: 'fal-ai/veo3', imageEndpoint: 'fal-ai/veo3/image-to-video' },
  ),
  falModel(
    {
      id: 'fal-veo3-fast',
      name: 'Veo 3 Fast (fal.ai)',
      description: 'The faster, cheaper Veo 3, with sound, through fal.ai.',
    },
    VEO_3,
    { family: 'veo', textEndpoint: 'fal-ai/veo3/fast', imageEndpoint: 'fal-ai/veo3/fast/image-to-video' },
  ),
  falModel(
    {
      id: 'fal-veo3.1',
      name: 'Veo 3.1 (fal.ai)',
      description: "Google's Veo 3.1 with sound through fal.ai: start and end frames, or up to 3 reference images.",
    },
    // fal-ai/veo3.1/first-last-frame-to-video (first_frame_url, last_frame_url) and
    // fal-ai/veo3.1/reference-to-video (image_urls; Google's Veo documents up to 3 asset images).
    { ...VEO_3, endFrame: true, referenceImages: 3, referencesAlone: true },
    {
      family: 'veo',
      textEndpoint: 'fal-ai/veo3.1',
      imageEndpoint: 'fal-ai/veo3.1/image-to-video',
      endFrameEndpoint: 'fal-ai/veo3.1/first-last-frame-to-video',
      referenceEndpoint: 'fal-ai/veo3.1/reference-to-video',
      // https://fal.ai/models/fal-ai/veo3.1/extend-video/api: "Input videos up to 8 seconds in length,
      // 720p or 1080p resolution, 16:9 or 9:16 aspect ratio"; the answer is the whole extended video
      // (fal's API reference: "Extend Veo-Created Videos up to 30 seconds"; Google's Veo extension:
      // "extended by 7 seconds (up to 37 seconds total)",
      // https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/video/extend-videos).
      extend: {
        endpoint: 'fal-ai/veo3.1/extend-video',
        maxInputSeconds: 8,
        addsSeconds: 7,
        resolutions: ['720p', '1080p'],
        aspectRatios: ['16:9', '9:16'],
      },
    },
  ),
  falModel(
    {
      id: 'fal-kling-2.1',
      name: 'Kling 2.1 Master (fal.ai)',
      description: 'Kling 2.1 Master text and image to video through fal.ai.',
    },
    KLING_2_1_MASTER,
    {
      family: 'kling',
      textEndpoint: 'fal-ai/kling-video/v2.1/master/text-to-video',
      imageEndpoint: 'fal-ai/kling-video/v2.1/master/image-to-video',
    },
  ),
  falModel(
    {
      id: 'fal-kling-2.5-turbo',
      name: 'Kling 2.5 Turbo Pro (fal.ai)',
      description: 'Kling 2.5 Turbo Pro through fal.ai, with a start and an end frame.',
    },
    // Its image-to-video takes `tail_image_url`, "the image to be used for the end of the video"
    // (https://fal.ai/models/fal-ai/kling-video/v2.5-turbo/pro/image-to-video/llms.txt).
    { ...KLING_2_1_MASTER, endFrame: true },
    {
      family: 'kling',
      textEndpoint: 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video',
      imageEndpoint: 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video',
    },
  ),
  falModel(
    {
      id: 'fal-wan-2.2',
      name: 'Wan 2.2 5B (fal.ai)',
      description:
        'The open-weight Wan 2.2 model, hosted by fal.ai; a start and an end frame go to Wan 2.1 first-last-frame.',
    },
    // fal's Wan first-last-frame endpoint is Wan 2.1 FLF2V (start_image_url, end_image_url:
    // https://fal.ai/models/fal-ai/wan-flf2v/llms.txt).
    { ...OPEN_WEIGHT, endFrame: true },
    {
      family: 'wan',
      textEndpoint: 'fal-ai/wan/v2.2-5b/text-to-video',
      imageEndpoint: 'fal-ai/wan/v2.2-5b/image-to-video',
      endFrameEndpoint: 'fal-ai/wan-flf2v',
    },
  ),
  falModel(
    {
      id: 'fal-ltx-video',
      name: 'LTX-Video 13B (fal.ai)',
      description: "Lightricks' fast open-weight LTX-Video, hosted by fal.ai.",
    },
    OPEN_WEIGHT,
    {
      family: 'ltx',
      textEndpoint: 'fal-ai/ltx-video-13b-distilled',
      imageEndpoint: 'fal-ai/ltx-video-13b-distilled/image-to-video',
    },
  ),
  falModel(
    {
      id: 'fal-hailuo-02',
      name: 'Hailuo 02 (fal.ai)',
      description: "MiniMax's Hailuo 02 text and image to video through fal.ai.",
    },
    { ...OPEN_WEIGHT, durations: [6, 10], aspectRatios: ['16:9'] },
    {
      family: 'hailuo',
      textEndpoint: 'fal-ai/minimax/hailuo-02/standard/text-to-video',
      imageEndpoint: 'fal-ai/minimax/hailuo-02/standard/image-to-video',
    },
  ),
  replicateModel(
    {
      id: 'replicate-veo3',
      name: 'Veo 3 (Replicate)',
      description: "Google's Veo 3 with native sound, through Replicate.",
    },
    { ...VEO_3, durations: [8] },
    { family: 'veo', slug: 'google/veo-3' },
  ),
  replicateModel(
    {
      id: 'replicate-kling-2.1',
      name: 'Kling 2.1 Master (Replicate)',
      description: 'Kling 2.1 Master text and image to video through Replicate.',
    },
    KLING_2_1_MASTER,
    { family: 'kling', slug: 'kwaivgi/kling-v2.1-master' },
  ),
  {
    id: 'local',
    engine: 'local',
    name: 'Local preview engine',
    description:
      'Renders a preview on this server with FFmpeg from your image, video, audio and words. It is not an AI model.',
    inputs: ['text', 'image', 'video', 'audio'],
    durations: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
    aspectRatios: ALL,
    resolutions: ['480p', '720p', '1080p'],
    sound: true,
    // A crossfade from the start image to the end image under the usual camera motion.
    endFrame: true,
    cameraMoves: ALL_MOVES,
    referenceImages: 0,
    isPreview: true,
    missing: '',
  },
];

/**
 * Which model a request that names none gets (the generator preselects it; GET /api/models marks it
 * `isDefault`; the estimate and the charge price it): Veo 3, else Kling, else the first AI model this
 * server can run in the catalogue's order, else the local preview engine, which always runs.
 */
export function chooseDefaultModel(models: readonly { definition: ModelDefinition; available: boolean }[]): string {
  const available = models.filter((m) => m.available).map((m) => m.definition);
  const preferred = ['veo3', 'kling-v2v'].find((id) => available.some((d) => d.id === id));
  return preferred ?? available.find((d) => !d.isPreview)?.id ?? 'local';
}

const creditsSchema = z
  .number()
  .min(0)
  .max(10_000)
  .refine(
    (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
    'must have at most 2 decimals',
  );

/** A provider's price in US dollars: at most $1,000, to the millionth (the unit the cost is stored in). */
const usdSchema = z
  .number({ error: 'must be a number of US dollars' })
  .min(0, 'cannot be negative')
  .max(1000, 'must be at most 1000 (US dollars)')
  .refine((v) => Math.abs(v * 1e6 - Math.round(v * 1e6)) < 1e-6, 'must have at most 6 decimals');

/**
 * What the provider bills for one video of the model, for the admin cost view: `usd` per video, or per
 * second of video with `per: "second"` (as `per` prices credits).
 */
export const providerCostSchema = z
  .object({
    usd: usdSchema,
    per: z.enum(['video', 'second'], { error: 'must be "video" or "second"' }).default('video'),
  })
  .strict();
export type ProviderCost = z.output<typeof providerCostSchema>;

/**
 * A job's provider cost in millionths of a US dollar (an integer), from the model's cost and the
 * seconds it was asked for; null when the operator gave the model no cost.
 */
export function providerCostMicroUsd(cost: ProviderCost | undefined, seconds: number): number | null {
  if (!cost) return null;
  const perVideo = Math.round(cost.usd * 1e6);
  return cost.per === 'second' ? perVideo * seconds : perVideo;
}

/**
 * MODELS_CONFIG: the operator's one file of per-model prices and switches, for example
 * {"models": {"fal-veo3": {"credits": 4, "economyCredits": 2}, "fal-hailuo-02": {"enabled": false},
 *  "fal-wan-2.2": {"endpoint": "fal-ai/wan/v2.2-5b/text-to-video", "imageEndpoint": null},
 *  "fal-kling-2.1": {"providerCost": {"usd": 0.28, "per": "second"}}}}
 */
export const modelsConfigSchema = z
  .object({
    models: z.record(
      z.string(),
      z
        .object({
          credits: creditsSchema.optional(),
          economyCredits: creditsSchema.optional(),
          /** 'second': `credits`, `economyCredits` and `resolutionCredits` are per second of video. */
          per: z.enum(['video', 'second']).optional(),
          /** Standard credits at a resolution (economy keeps the model's economy share). */
          resolutionCredits: z.partialRecord(z.enum(RESOLUTIONS), creditsSchema).optional(),
          /** Narrow what the generator offers to some of what the model renders. */
          durations: z.array(z.number().int().min(1).max(60)).min(1).optional(),
          aspectRatios: z.array(z.enum(ASPECT_RATIOS)).min(1).optional(),
          resolutions: z.array(z.enum(RESOLUTIONS)).min(1).optional(),
          cameraMoves: z.array(z.enum(CAMERA_MOVES)).optional(),
          /** What the provider bills (USD per video or per second): the admin cost view's provider cost and margin. */
          providerCost: providerCostSchema.optional(),
          enabled: z.boolean().optional(),
          name: z.string().min(1).max(80).optional(),
          /** fal endpoint ids or a Replicate owner/name, when the provider renames a model. */
          endpoint: z
            .string()
            .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)+$/)
            .optional(),
          imageEndpoint: z
            .string()
            .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)+$/)
            .nullable()
            .optional(),
        })
        .strict(),
    ),
    /** Finishing tools' prices and switches (engines/finishing.ts). */
    finishing: finishingOverridesSchema.default({}),
  })
  .strict();
export type ModelsConfig = z.infer<typeof modelsConfigSchema>;
export type ModelOverrides = ModelsConfig['models'][string];

/** Reads and checks MODELS_CONFIG; throws an Error with a sentence naming the problem. */
export function readModelsConfig(file: string | undefined): ModelsConfig {
  if (!file) return { models: {}, finishing: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(
      `MODELS_CONFIG: ${file} is not readable JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const parsed = modelsConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`MODELS_CONFIG: ${file}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'}`);
  }
  return parsed.data;
}

/**
 * A model's capabilities once the operator's lists narrowed them; throws a sentence when a list names
 * something the model does not render, or prices a resolution it does not render.
 */
export function narrowed(definition: ModelDefinition, overrides: ModelOverrides | undefined): ModelDefinition {
  const pick = <T>(key: 'durations' | 'aspectRatios' | 'resolutions' | 'cameraMoves', own: T[], asked?: T[]): T[] => {
    if (!asked) return own;
    const extra = asked.filter((v) => !own.includes(v));
    if (extra.length > 0)
      throw new Error(
        `MODELS_CONFIG: models.${definition.id}.${key}: ${definition.id} does not render ${extra.join(', ')}`,
      );
    return own.filter((v) => asked.includes(v));
  };
  const resolutions = pick('resolutions', definition.resolutions, overrides?.resolutions);
  const priced = Object.keys(overrides?.resolutionCredits ?? {}) as Resolution[];
  const unpriceable = priced.filter((r) => !resolutions.includes(r));
  if (unpriceable.length > 0)
    throw new Error(
      `MODELS_CONFIG: models.${definition.id}.resolutionCredits: ${definition.id} does not render ${unpriceable.join(', ')}`,
    );
  return {
    ...definition,
    durations: pick('durations', definition.durations, overrides?.durations),
    aspectRatios: pick('aspectRatios', definition.aspectRatios, overrides?.aspectRatios),
    resolutions,
    cameraMoves: pick('cameraMoves', definition.cameraMoves, overrides?.cameraMoves),
  };
}

/** A model's base price in hundredths: the config's, else the spec's (1 credit, 0.5 in economy mode). */
export function priceFrom(overrides: ModelOverrides | undefined): ModelPrice {
  const standard =
    overrides?.credits === undefined ? DEFAULT_MODEL_PRICE.standard : Math.round(overrides.credits * 100);
  const economy =
    overrides?.economyCredits !== undefined
      ? Math.round(overrides.economyCredits * 100)
      : overrides?.credits !== undefined
        ? Math.round(standard / 2)
        : DEFAULT_MODEL_PRICE.economy;
  const byResolution: ModelPrice['byResolution'] = {};
  for (const r of RESOLUTIONS) {
    const credits = overrides?.resolutionCredits?.[r];
    if (credits !== undefined) byResolution[r] = Math.round(credits * 100);
  }
  return { standard, economy, perSecond: overrides?.per === 'second', byResolution };
}
