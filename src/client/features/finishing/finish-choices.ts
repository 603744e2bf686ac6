import {
  type FinishAction,
  type FinishBody,
  type FinishingTool,
  finishRefusal,
  type UpscaleResolution,
  upscaleLines,
} from '../../../shared/finishing';
import type { GenerationRecord } from '../../../shared/generations';

// What the Finish dialog offers for one video and what it sends: pure, so the dialog only draws it.

/** What the dialog can ask for. Lip-sync and restyle come with tools that do them. */
const DRAWN_ACTIONS = ['upscale', 'add-sound'] as const satisfies readonly FinishAction[];
export type DrawnAction = (typeof DRAWN_ACTIONS)[number];

/** 'keep': the video's own resolution or frame rate. */
export type Keep = 'keep';

/** What the person has chosen in the dialog. */
export interface FinishForm {
  action: DrawnAction;
  resolution: UpscaleResolution | Keep;
  fps: number | Keep;
  /** The uploaded recording's object path, for add sound. */
  recording: string | null;
}

/** One action the dialog offers, with the tool that does it and the choices that tool has for this video. */
export interface OfferedAction {
  action: DrawnAction;
  tool: FinishingTool;
  /** Upscale: the tool's resolutions larger than the video's own. */
  resolutions: UpscaleResolution[];
  /** Upscale: the frame rates the tool smooths to. */
  fps: number[];
}

/** The lines of the video's resolution when its record names one ('480p': 480), else null. */
function videoLines(video: Pick<GenerationRecord, 'settings'>): number | null {
  const resolution = video.settings?.resolution;
  return resolution ? Number.parseInt(resolution, 10) : null;
}

/**
 * Each action an available tool here does, with that tool: the first that takes a video of this
 * length (as the server chooses), else the first, whose refusal the dialog then shows. An upscale
 * that could make nothing larger or smoother is not offered.
 */
export function offeredActions(
  tools: readonly FinishingTool[],
  video: Pick<GenerationRecord, 'duration' | 'settings'>,
): OfferedAction[] {
  const seconds = video.duration;
  const lines = videoLines(video);
  return DRAWN_ACTIONS.flatMap((action) => {
    // A sound that must be described needs a description box the dialog does not have yet.
    const usable = tools.filter((t) => t.action === action && t.available && t.prompt !== 'required');
    const tool = usable.find((t) => seconds <= t.maxInputSeconds + 0.1) ?? usable[0];
    if (!tool) return [];
    const resolutions = tool.resolutions.filter((r) => lines === null || upscaleLines(r) > lines);
    if (action === 'upscale' && resolutions.length === 0 && tool.fps.length === 0) return [];
    return [{ action, tool, resolutions: action === 'upscale' ? resolutions : [], fps: tool.fps }];
  });
}

/** What Finish sends for these choices (the tool named, so the price shown is the price charged). */
export function finishBody(offer: OfferedAction, form: FinishForm): FinishBody {
  if (offer.action === 'upscale')
    return {
      action: 'upscale',
      tool: offer.tool.id,
      ...(form.resolution === 'keep' ? {} : { resolution: form.resolution }),
      ...(form.fps === 'keep' ? {} : { fps: form.fps }),
    };
  return { action: 'add-sound', tool: offer.tool.id, ...(form.recording ? { audioFile: form.recording } : {}) };
}

/** Why Finish cannot be pressed yet: what is still to choose, or the tool's refusal of this video; null when it can. */
export function finishBlocker(
  offer: OfferedAction,
  form: FinishForm,
  video: Pick<GenerationRecord, 'duration'>,
): { kind: 'refused' | 'incomplete'; message: string } | null {
  const refusal = finishRefusal(offer.tool, finishBody(offer, form), {
    seconds: video.duration,
    shortSide: null,
    fps: null,
  });
  if (refusal?.code === 'video_too_long') return { kind: 'refused', message: refusal.message };
  if (offer.action === 'upscale' && form.resolution === 'keep' && form.fps === 'keep')
    return { kind: 'incomplete', message: 'Choose a larger resolution, more frames a second, or both.' };
  if (offer.action === 'add-sound' && offer.tool.audio === 'required' && !form.recording)
    return { kind: 'incomplete', message: 'Choose the recording to add.' };
  return refusal ? { kind: 'refused', message: refusal.message } : null;
}

/** The submit button's verb: what the choices make of the video. */
export function finishVerb(offer: OfferedAction, form: FinishForm): string {
  if (offer.action === 'add-sound') return 'Add sound';
  if (form.resolution !== 'keep' && form.fps !== 'keep') return 'Upscale and smooth';
  return form.fps !== 'keep' ? 'Smooth' : 'Upscale';
}
