import { z } from 'zod';
import type { FinishAction, FinishingTool } from '../../shared/finishing';
import { UPSCALE_RESOLUTIONS } from '../../shared/finishing';
import { UPSCALE_METHOD_WORDS } from '../media/upscale';
import { EngineError, type EngineJob } from './engine';

// The finishing tools this product knows (issue 48), each an action on a finished video with its
// price and limits; GET /api/finishing lists them with whether this installation can run them.
// The operator prices or switches one off in MODELS_CONFIG's `finishing` (the same file as models).

/** One finishing tool, whether or not this server can run it. */
export interface FinishingToolDefinition extends Omit<FinishingTool, 'available' | 'reason' | 'credits' | 'pricePer'> {
  /** Who does the work: this server's FFmpeg, or a provider. */
  engine: 'local' | 'fal';
  /** Its price unless MODELS_CONFIG says otherwise. */
  price: { credits: number; per: 'video' | 'second' };
  /** Why it cannot run here when its provider is not configured. */
  missing: string;
  /** A fal.ai tool's endpoint and its input, as the endpoint's page documents it. */
  fal?: {
    endpoint: string;
    input(finish: NonNullable<EngineJob['finish']>, job: EngineJob): Record<string, unknown>;
  };
}

/** What this server's add sound does, in words for people and for the Content Credentials. */
export const MIX_METHOD_WORDS =
  'Your recording laid under the video, trimmed and faded to its length (FFmpeg), not by AI';

const LOCAL_TOOLS: FinishingToolDefinition[] = [
  {
    id: 'local-upscale',
    action: 'upscale',
    name: 'Upscale and smooth on this server',
    method: UPSCALE_METHOD_WORDS,
    ai: false,
    engine: 'local',
    // Interpolation runs about twelve times slower than the video on one core: a short video only.
    price: { credits: 0.1, per: 'second' },
    maxInputSeconds: 20,
    resolutions: [...UPSCALE_RESOLUTIONS],
    fps: [48, 60],
    audio: 'none',
    prompt: 'none',
    needsFace: false,
    missing: '',
  },
  {
    id: 'local-mix',
    action: 'add-sound',
    name: 'Add your recording on this server',
    method: MIX_METHOD_WORDS,
    ai: false,
    engine: 'local',
    price: { credits: 0.1, per: 'video' },
    maxInputSeconds: 600,
    resolutions: [],
    fps: [],
    audio: 'required',
    prompt: 'none',
    needsFace: false,
    missing: '',
  },
];

const NO_FAL = 'Not available on this server: it has no fal.ai key (FAL_KEY).';

/** MMAudio makes 1 to 30 s of sound (fal-ai/mmaudio-v2 `duration`). */
const MMAUDIO_SECONDS = { min: 1, max: 30 };

/**
 * The fal.ai tools, each from its page's input schema (https://fal.ai/models/<endpoint>/llms.txt):
 * - fal-ai/mmaudio-v2 (video to video, "synchronized audio given video and/or text inputs"):
 *   video_url and prompt required; optional negative_prompt, seed, num_steps (4-50), duration (1-30 s,
 *   default 8), cfg_strength, mask_away_clip. Its answer is {video: File}: the video with the sound.
 * - fal-ai/sync-lipsync/v2: video_url and audio_url required; optional model (lipsync-2,
 *   lipsync-2-pro) and sync_mode (cut_off, loop, bounce, silence, remap; default cut_off). {video: File}.
 * - fal-ai/bytedance-upscaler/upscale/video: video_url required; optional target_resolution (1080p, 2k,
 *   4k; default 1080p), target_fps (30fps, 60fps; default 30fps), enhancement_preset. {video: File}.
 * - fal-ai/luma-dream-machine/ray-2/modify (https://fal.ai/models/fal-ai/luma-dream-machine/ray-2/modify/api):
 *   video_url, prompt, an optional image_url (one picture to follow) and mode; the modes and limits are
 *   Luma's Modify Video (https://docs.lumalabs.ai/docs/modify-video): adhere_1-3, flex_1-3,
 *   reimagine_1-3, videos of up to 10 s and 100 MB. {video: File}.
 */
const FAL_TOOLS: FinishingToolDefinition[] = [
  {
    id: 'fal-mmaudio',
    action: 'add-sound',
    name: 'MMAudio V2 (fal.ai)',
    method: 'Sound made to match the picture by MMAudio V2, an AI model, through fal.ai',
    ai: true,
    engine: 'fal',
    price: { credits: 0.05, per: 'second' },
    maxInputSeconds: MMAUDIO_SECONDS.max,
    resolutions: [],
    fps: [],
    audio: 'none',
    prompt: 'optional',
    needsFace: false,
    missing: NO_FAL,
    fal: {
      endpoint: 'fal-ai/mmaudio-v2',
      input: (finish, job) => ({
        video_url: finish.video.url,
        // Its prompt is required: the sound described, else the video's own description.
        prompt: finish.prompt ?? job.prompt,
        duration: Math.min(MMAUDIO_SECONDS.max, Math.max(MMAUDIO_SECONDS.min, Math.ceil(finish.seconds))),
      }),
    },
  },
  {
    id: 'fal-sync-lipsync',
    action: 'lip-sync',
    name: 'Sync Lipsync 2.0 (fal.ai)',
    method: 'The mouth moved to the voice by Sync Lipsync 2.0, an AI model, through fal.ai',
    ai: true,
    engine: 'fal',
    price: { credits: 0.1, per: 'second' },
    maxInputSeconds: 120,
    resolutions: [],
    fps: [],
    audio: 'required',
    prompt: 'none',
    needsFace: true,
    missing: NO_FAL,
    fal: {
      endpoint: 'fal-ai/sync-lipsync/v2',
      input: (finish) => {
        if (!finish.audio) throw new EngineError('A lip-sync needs a voice recording.', false);
        // cut_off: the result lasts as long as the shorter of the two, never a looped picture.
        return { video_url: finish.video.url, audio_url: finish.audio.url, model: 'lipsync-2', sync_mode: 'cut_off' };
      },
    },
  },
  {
    id: 'fal-bytedance-upscale',
    action: 'upscale',
    name: 'ByteDance Upscaler (fal.ai)',
    method: 'Upscaled by the ByteDance video upscaler, an AI model, through fal.ai',
    ai: true,
    engine: 'fal',
    price: { credits: 0.1, per: 'second' },
    maxInputSeconds: 60,
    resolutions: [...UPSCALE_RESOLUTIONS],
    fps: [60],
    audio: 'none',
    prompt: 'none',
    needsFace: false,
    missing: NO_FAL,
    fal: {
      endpoint: 'fal-ai/bytedance-upscaler/upscale/video',
      input: (finish) => ({
        video_url: finish.video.url,
        target_resolution: finish.resolution === '2160p' ? '4k' : '1080p',
        target_fps: finish.fps === 60 ? '60fps' : '30fps',
      }),
    },
  },
  {
    id: 'fal-ray2-modify',
    action: 'restyle',
    name: 'Luma Ray 2 Modify (fal.ai)',
    method: 'Restyled from the description by Luma Ray 2 Modify, an AI model, through fal.ai',
    ai: true,
    engine: 'fal',
    price: { credits: 0.3, per: 'second' },
    maxInputSeconds: 10,
    resolutions: [],
    fps: [],
    audio: 'none',
    prompt: 'required',
    needsFace: false,
    missing: NO_FAL,
    fal: {
      endpoint: 'fal-ai/luma-dream-machine/ray-2/modify',
      input: (finish, job) => ({
        video_url: finish.video.url,
        prompt: finish.prompt ?? job.prompt,
        // Flex: a new look that keeps the shapes, characters and motion of the original.
        mode: 'flex_1',
        ...(finish.image ? { image_url: finish.image.url } : {}),
      }),
    },
  },
];

/** Every tool, this server's first: where several do an action, the first available one that fits is used. */
export const FINISHING_TOOLS: readonly FinishingToolDefinition[] = [...LOCAL_TOOLS, ...FAL_TOOLS];

/** Whether this server's own FFmpeg does the tool's work (the worker runs it without a provider). */
export function isLocalFinishingTool(id: string): boolean {
  return FINISHING_TOOLS.find((tool) => tool.id === id)?.engine === 'local';
}

const creditsSchema = z.number().min(0).max(1000);

/** MODELS_CONFIG `finishing`: a tool's price and switch, e.g. {"local-upscale": {"credits": 0.2, "per": "second"}}. */
export const finishingOverridesSchema = z.record(
  z.string(),
  z.strictObject({
    credits: creditsSchema.optional(),
    per: z.enum(['video', 'second']).optional(),
    enabled: z.boolean().optional(),
  }),
);
export type FinishingOverrides = z.infer<typeof finishingOverridesSchema>;

/** The ids MODELS_CONFIG `finishing` names that no tool has (a sentence's worth), or none. */
export function unknownFinishingIds(overrides: FinishingOverrides): string[] {
  return Object.keys(overrides).filter((id) => !FINISHING_TOOLS.some((tool) => tool.id === id));
}

/** Every tool with its price and whether this server runs it: local tools always (as the local engine), a provider's with its key. */
export function finishingCatalogue(
  overrides: FinishingOverrides,
  providers: { fal: boolean } = { fal: false },
): FinishingTool[] {
  return FINISHING_TOOLS.map(({ engine, price, missing, fal: _fal, ...tool }) => {
    const custom = overrides[tool.id];
    const switchedOff = custom?.enabled === false;
    const runs = engine === 'local' || (engine === 'fal' && providers.fal);
    return {
      ...tool,
      resolutions: [...tool.resolutions],
      fps: [...tool.fps],
      credits: custom?.credits ?? price.credits,
      pricePer: custom?.per ?? price.per,
      available: runs && !switchedOff,
      reason: switchedOff ? 'Not available on this server: its operator switched it off.' : runs ? null : missing,
    };
  });
}

/** The first available tool for an action that can take this request, or the named one. */
export function chooseFinishingTool(
  tools: readonly FinishingTool[],
  action: FinishAction,
  named: string | undefined,
  fits: (tool: FinishingTool) => boolean,
): FinishingTool | undefined {
  if (named) return tools.find((tool) => tool.id === named);
  const offered = tools.filter((tool) => tool.action === action && tool.available);
  return offered.find(fits) ?? offered[0];
}
