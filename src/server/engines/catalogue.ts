import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AspectRatio, EngineKind, ModelInputKind, Resolution } from '../../shared/models';
import { DEFAULT_MODEL_PRICE, type ModelPrice } from '../../shared/money/pricing';
import type { FalFamily } from './fal-engine';
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
  isPreview: boolean;
  /** Why it cannot run without its provider's keys or address. */
  missing: string;
  fal?: { family: FalFamily; textEndpoint: string; imageEndpoint: string | null };
  replicate?: { family: ReplicateFamily; slug: string };
}

const ALL: AspectRatio[] = ['16:9', '9:16', '1:1'];
const WIDE_TALL: AspectRatio[] = ['16:9', '9:16'];
const NO_FAL = 'Not available on this server: it has no fal.ai key (FAL_KEY).';
const NO_REPLICATE = 'Not available on this server: it has no Replicate token (REPLICATE_API_TOKEN).';

/** What a model makes; the same model family makes the same on every provider that hosts it. */
type Capabilities = Pick<ModelDefinition, 'inputs' | 'durations' | 'aspectRatios' | 'resolutions' | 'sound'>;
type About = Pick<ModelDefinition, 'id' | 'name' | 'description'>;

const VEO_3: Capabilities = {
  inputs: ['text', 'image'],
  durations: [4, 6, 8],
  aspectRatios: WIDE_TALL,
  resolutions: ['720p', '1080p'],
  sound: true,
};
const KLING_2_1_MASTER: Capabilities = {
  inputs: ['text', 'image'],
  durations: [5, 10],
  aspectRatios: ALL,
  resolutions: ['1080p'],
  sound: false,
};
const OPEN_WEIGHT: Capabilities = {
  inputs: ['text', 'image'],
  durations: [5],
  aspectRatios: ALL,
  resolutions: ['720p'],
  sound: false,
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
    isPreview: false,
    missing: 'Not available on this server: it has no Kling API keys.',
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
    { id: 'fal-wan-2.2', name: 'Wan 2.2 5B (fal.ai)', description: 'The open-weight Wan 2.2 model, hosted by fal.ai.' },
    OPEN_WEIGHT,
    {
      family: 'wan',
      textEndpoint: 'fal-ai/wan/v2.2-5b/text-to-video',
      imageEndpoint: 'fal-ai/wan/v2.2-5b/image-to-video',
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
    isPreview: true,
    missing: '',
  },
];

const creditsSchema = z
  .number()
  .min(0)
  .max(10_000)
  .refine(
    (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
    'must have at most 2 decimals',
  );

/**
 * MODELS_CONFIG: the operator's one file of per-model prices and switches, for example
 * {"models": {"fal-veo3": {"credits": 4, "economyCredits": 2}, "fal-hailuo-02": {"enabled": false},
 *  "fal-wan-2.2": {"endpoint": "fal-ai/wan/v2.2-5b/text-to-video", "imageEndpoint": null}}}
 */
export const modelsConfigSchema = z
  .object({
    models: z.record(
      z.string(),
      z
        .object({
          credits: creditsSchema.optional(),
          economyCredits: creditsSchema.optional(),
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
  })
  .strict();
export type ModelsConfig = z.infer<typeof modelsConfigSchema>;
export type ModelOverrides = ModelsConfig['models'][string];

/** Reads and checks MODELS_CONFIG; throws an Error with a sentence naming the problem. */
export function readModelsConfig(file: string | undefined): ModelsConfig {
  if (!file) return { models: {} };
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
  return { standard, economy };
}
