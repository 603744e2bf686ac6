import { z } from 'zod';
import type { FinishAction, FinishingTool } from '../../shared/finishing';
import { UPSCALE_RESOLUTIONS } from '../../shared/finishing';
import { UPSCALE_METHOD_WORDS } from '../media/upscale';

// The finishing tools this product knows (issue 48), each an action on a finished video with its
// price and limits; GET /api/finishing lists them with whether this installation can run them.
// The operator prices or switches one off in MODELS_CONFIG's `finishing` (the same file as models).

/** One finishing tool, whether or not this server can run it. */
export interface FinishingToolDefinition extends Omit<FinishingTool, 'available' | 'reason' | 'credits' | 'pricePer'> {
  /** Who does the work: this server's FFmpeg, or a provider. */
  engine: 'local';
  /** Its price unless MODELS_CONFIG says otherwise. */
  price: { credits: number; per: 'video' | 'second' };
  /** Why it cannot run here when its provider is not configured. */
  missing: string;
}

/** What this server's add sound does, in words for people and for the Content Credentials. */
export const MIX_METHOD_WORDS =
  'Your recording laid under the video, trimmed and faded to its length (FFmpeg), not by AI';

export const FINISHING_TOOLS: readonly FinishingToolDefinition[] = [
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

/** Every tool with its price and whether this server runs it (local tools always, as the local engine). */
export function finishingCatalogue(overrides: FinishingOverrides): FinishingTool[] {
  return FINISHING_TOOLS.map(({ engine, price, missing, ...tool }) => {
    const custom = overrides[tool.id];
    const switchedOff = custom?.enabled === false;
    const runs = engine === 'local';
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
