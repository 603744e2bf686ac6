import { z } from 'zod';
import { multiLine, singleLine } from './text';

// Finishing (issue 48): an action on one of the user's finished videos that makes a new video whose
// parent is the original, priced by the tool that does it and paid like a generation.
// GET /api/finishing lists the tools this installation has; POST /api/video-generation/:id/finish
// runs one.

export const FINISH_ACTIONS = ['upscale', 'add-sound', 'lip-sync', 'restyle'] as const;
export type FinishAction = (typeof FINISH_ACTIONS)[number];

export const FINISH_ACTION_LABELS: Record<FinishAction, string> = {
  upscale: 'Upscale and smooth',
  'add-sound': 'Add sound',
  'lip-sync': 'Lip-sync',
  restyle: 'Restyle',
};

/** What an action does, as a verb in a sentence: "This server cannot add sound to videos". */
export const FINISH_ACTION_VERBS: Record<FinishAction, string> = {
  upscale: 'upscale or smooth',
  'add-sound': 'add sound to',
  'lip-sync': 'lip-sync',
  restyle: 'restyle',
};

/** The resolutions a finished video may be upscaled to. */
export const UPSCALE_RESOLUTIONS = ['1080p', '2160p'] as const;
export type UpscaleResolution = (typeof UPSCALE_RESOLUTIONS)[number];
/** The frame rates a finished video may be smoothed to. */
export const SMOOTH_FPS = [48, 60] as const;
export type SmoothFps = (typeof SMOOTH_FPS)[number];

/** Longest description of a sound or a restyle. */
export const MAX_FINISH_PROMPT_LENGTH = 500;

/** One tool that finishes videos, as GET /api/finishing answers it. */
export const finishingToolSchema = z.object({
  id: z.string(),
  action: z.enum(FINISH_ACTIONS),
  name: z.string(),
  /** How it does it, in words for people (the same words go into the video's Content Credentials). */
  method: z.string(),
  /** An AI model makes what it adds; false for this server's own FFmpeg work. */
  ai: z.boolean(),
  /** Its price in credits, per video or per second of the video it finishes. */
  credits: z.number(),
  pricePer: z.enum(['video', 'second']),
  /** The longest video it takes, in seconds. */
  maxInputSeconds: z.number(),
  /** Upscale: the resolutions it makes (empty for other actions). */
  resolutions: z.array(z.enum(UPSCALE_RESOLUTIONS)),
  /** Upscale: the frame rates it smooths to (empty when it does not). */
  fps: z.array(z.number().int()),
  /** Whether a recording is needed ('required': lip-sync's voice, the local mix's track), taken, or not. */
  audio: z.enum(['required', 'optional', 'none']),
  /** Whether a description is needed (restyle), taken (a sound's description), or not. */
  prompt: z.enum(['required', 'optional', 'none']),
  /** It refuses a video that shows no face (lip-sync). */
  needsFace: z.boolean(),
  available: z.boolean(),
  /** Why it is not available, when it is not. */
  reason: z.string().nullable(),
});
export type FinishingTool = z.infer<typeof finishingToolSchema>;

export const finishingCatalogueSchema = z.object({ tools: z.array(finishingToolSchema) });

const tool = z.string().trim().min(1).max(80).check(singleLine).optional();
const recording = z.string().trim().min(1).max(1000).check(singleLine);
const words = z.string().trim().min(1).max(MAX_FINISH_PROMPT_LENGTH).check(multiLine);

/** POST /api/video-generation/:id/finish: the action, the tool (else the first available one that fits) and its choices. */
export const finishBodySchema = z.discriminatedUnion('action', [
  z
    .strictObject({
      action: z.literal('upscale'),
      tool,
      /** Absent: the video's own size (only smoothing). */
      resolution: z.enum(UPSCALE_RESOLUTIONS).optional(),
      /** Absent: the video's own frame rate (only upscaling). */
      fps: z
        .number()
        .int()
        .refine((fps) => (SMOOTH_FPS as readonly number[]).includes(fps), `must be one of ${SMOOTH_FPS.join(', ')}`)
        .optional(),
    })
    .refine((body) => body.resolution !== undefined || body.fps !== undefined, {
      message: 'Choose a resolution, a frame rate, or both.',
      path: ['resolution'],
    }),
  z.strictObject({
    action: z.literal('add-sound'),
    tool,
    /** A recording of the user's (an upload's objectPath) to mix under the video. */
    audioFile: recording.optional(),
    /** What the sound should be, for a model that makes it. */
    prompt: words.optional(),
  }),
  z.strictObject({
    action: z.literal('lip-sync'),
    tool,
    /** The voice recording the mouth follows. */
    audioFile: recording,
  }),
  z.strictObject({
    action: z.literal('restyle'),
    tool,
    prompt: words,
    /** A picture of the look to follow. */
    imageFile: recording.optional(),
  }),
]);
export type FinishBody = z.output<typeof finishBodySchema>;

/** A tool's price for a video of this length, in hundredths (per second: the measured seconds, rounded). */
export function finishPriceHundredths(tool: Pick<FinishingTool, 'credits' | 'pricePer'>, seconds: number): number {
  const hundredths = Math.round(tool.credits * 100);
  return tool.pricePer === 'second' ? Math.round(hundredths * Math.max(1, seconds)) : hundredths;
}

/** Why this tool cannot take what was asked of it on a video of this length (a sentence), or null when it can. */
export function finishRefusal(
  tool: FinishingTool,
  body: FinishBody,
  video: { seconds: number; shortSide: number | null; fps: number | null },
): { code: string; message: string } | null {
  if (video.seconds > tool.maxInputSeconds + 0.1)
    return {
      code: 'video_too_long',
      message: `${tool.name} takes videos of at most ${tool.maxInputSeconds} s; this one lasts ${Math.round(video.seconds * 10) / 10} s.`,
    };
  if (body.action === 'upscale') {
    if (body.resolution && !tool.resolutions.includes(body.resolution))
      return {
        code: 'finish_not_supported',
        message: `${tool.name} makes ${tool.resolutions.join(' or ') || 'no other size'}, not ${body.resolution}.`,
      };
    if (body.fps !== undefined && !tool.fps.includes(body.fps))
      return {
        code: 'finish_not_supported',
        message: `${tool.name} smooths to ${tool.fps.join(' or ') || 'no other frame rate'} frames a second, not ${body.fps}.`,
      };
    const taller =
      body.resolution !== undefined && (video.shortSide === null || upscaleLines(body.resolution) > video.shortSide);
    const smoother = body.fps !== undefined && (video.fps === null || body.fps > video.fps + 0.5);
    if (!taller && !smoother)
      return {
        code: 'nothing_to_finish',
        message: `This video is already ${video.shortSide ?? '?'} lines at ${Math.round(video.fps ?? 0)} frames a second. Choose a larger resolution or more frames a second.`,
      };
  }
  const hasAudio = 'audioFile' in body && body.audioFile !== undefined;
  if (tool.audio === 'required' && !hasAudio)
    return { code: 'audio_required', message: `${tool.name} needs a recording: upload one, then try again.` };
  if (tool.audio === 'none' && hasAudio)
    return { code: 'finish_not_supported', message: `${tool.name} takes no recording.` };
  const hasPrompt = 'prompt' in body && body.prompt !== undefined;
  if (tool.prompt === 'none' && hasPrompt)
    return { code: 'finish_not_supported', message: `${tool.name} takes no description.` };
  return null;
}

/** The lines of a resolution (1080p: 1080). */
export function upscaleLines(resolution: UpscaleResolution): number {
  return resolution === '2160p' ? 2160 : 1080;
}
