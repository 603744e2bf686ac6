import {
  FINISH_ACTIONS,
  type FinishAction,
  type FinishBody,
  type FinishingTool,
  finishRefusal,
  type UpscaleResolution,
  upscaleLines,
} from '../../../shared/finishing';
import type { GenerationRecord } from '../../../shared/generations';

// What the Finish dialog offers for one video and what it sends: pure, so the dialog only draws it.

/** 'keep': the video's own resolution or frame rate. */
export type Keep = 'keep';

/** What the person has chosen in the dialog. */
export interface FinishForm {
  action: FinishAction;
  resolution: UpscaleResolution | Keep;
  fps: number | Keep;
  /** The uploaded recording's object path: add sound's track, lip-sync's voice. */
  recording: string | null;
  /** The uploaded picture's object path: restyle's look to follow. */
  picture: string | null;
  /** A sound's description, or restyle's new look. */
  prompt: string;
}

/** One tool for an action, with the choices that tool has for this video. */
export interface OfferedAction {
  action: FinishAction;
  tool: FinishingTool;
  /** Upscale: the tool's resolutions larger than the video's own. */
  resolutions: UpscaleResolution[];
  /** Upscale: the frame rates the tool smooths to. */
  fps: number[];
}

/** One action the dialog offers, with every tool here that does it; the first is the one the server would choose. */
export interface ActionOffer {
  action: FinishAction;
  options: [OfferedAction, ...OfferedAction[]];
}

/** The lines of the video's resolution when its record names one ('480p': 480), else null. */
function videoLines(video: Pick<GenerationRecord, 'settings'>): number | null {
  const resolution = video.settings?.resolution;
  return resolution ? Number.parseInt(resolution, 10) : null;
}

/**
 * Each action an available tool here does, with those tools: the ones that take a video of this
 * length first (as the server chooses), then the others, whose refusal the dialog shows when picked.
 * An upscaler that could make nothing larger or smoother for this video is not offered.
 */
export function offeredActions(
  tools: readonly FinishingTool[],
  video: Pick<GenerationRecord, 'duration' | 'settings'>,
): ActionOffer[] {
  const lines = videoLines(video);
  const fits = (tool: FinishingTool) => video.duration <= tool.maxInputSeconds + 0.1;
  return FINISH_ACTIONS.flatMap((action) => {
    const usable = tools.filter((t) => t.action === action && t.available);
    const options = [...usable.filter(fits), ...usable.filter((t) => !fits(t))].flatMap((tool): OfferedAction[] => {
      if (action !== 'upscale') return [{ action, tool, resolutions: [], fps: [] }];
      const resolutions = tool.resolutions.filter((r) => lines === null || upscaleLines(r) > lines);
      return resolutions.length === 0 && tool.fps.length === 0 ? [] : [{ action, tool, resolutions, fps: tool.fps }];
    });
    const [first, ...rest] = options;
    return first ? [{ action, options: [first, ...rest] }] : [];
  });
}

/** The form with choices the offered tool does not have put back to 'keep' (after switching tools). */
export function fitForm(offer: OfferedAction, form: FinishForm): FinishForm {
  return {
    ...form,
    action: offer.action,
    resolution: form.resolution !== 'keep' && offer.resolutions.includes(form.resolution) ? form.resolution : 'keep',
    fps: form.fps !== 'keep' && offer.fps.includes(form.fps) ? form.fps : 'keep',
  };
}

/** What Finish sends for these choices (the tool named, so the price shown is the price charged). */
export function finishBody(offer: OfferedAction, form: FinishForm): FinishBody {
  const tool = offer.tool.id;
  const prompt = form.prompt.trim();
  const words = prompt && offer.tool.prompt !== 'none' ? { prompt } : {};
  const recording = form.recording && offer.tool.audio !== 'none' ? { audioFile: form.recording } : {};
  switch (offer.action) {
    case 'upscale':
      return {
        action: 'upscale',
        tool,
        ...(form.resolution === 'keep' ? {} : { resolution: form.resolution }),
        ...(form.fps === 'keep' ? {} : { fps: form.fps }),
      };
    case 'add-sound':
      return { action: 'add-sound', tool, ...recording, ...words };
    case 'lip-sync':
      // finishBlocker keeps Finish waiting until the voice is there.
      return { action: 'lip-sync', tool, audioFile: form.recording ?? '' };
    case 'restyle':
      return { action: 'restyle', tool, prompt, ...(form.picture ? { imageFile: form.picture } : {}) };
  }
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
  if (offer.tool.audio === 'required' && !form.recording)
    return {
      kind: 'incomplete',
      message: offer.action === 'lip-sync' ? 'Choose the voice recording.' : 'Choose the recording to add.',
    };
  if (offer.tool.prompt === 'required' && !form.prompt.trim())
    return { kind: 'incomplete', message: 'Describe the new look.' };
  return refusal ? { kind: 'refused', message: refusal.message } : null;
}

/** The submit button's verb: what the choices make of the video. */
export function finishVerb(offer: OfferedAction, form: FinishForm): string {
  switch (offer.action) {
    case 'add-sound':
      return 'Add sound';
    case 'lip-sync':
      return 'Lip-sync';
    case 'restyle':
      return 'Restyle';
    case 'upscale':
      if (form.resolution !== 'keep' && form.fps !== 'keep') return 'Upscale and smooth';
      return form.fps !== 'keep' ? 'Smooth' : 'Upscale';
  }
}

/** The Finish button's words and look: a draft was made to be finished, so its button says so and stands out. */
export function finishButtonOf(video: Pick<GenerationRecord, 'isDraft'>) {
  return video.isDraft
    ? { label: 'Finish this take', variant: 'default' as const }
    : { label: 'Finish', variant: 'outline' as const };
}
