import type { GenerationRecord, GoneInputKind } from '../../../../shared/generations';
import type { ModelInfo } from '../../../../shared/models';
import type { UploadKind } from '../../../../shared/uploads';

/** What Remix and Continue hand to the generator: its fields, filled in. */
export interface GeneratorDraft {
  origin: 'remix' | 'continue';
  description: string;
  audioEnabled: boolean;
  advancedSettings: string;
  isEconomy: boolean;
  model: string | null;
  inputs: Partial<Record<UploadKind, string>>;
  /** The end frame and reference images (Remix), as the keyframes card holds them. */
  keyframes?: { endImage?: string; referenceImages: string[] };
  /** What the video had whose files are gone (Remix): the notice says so. */
  gone?: GoneInputKind[];
}

const KEY = 'reelsmith:generator-draft';

/** Kept for the next time the generator opens (this tab only), then forgotten. */
export function saveGeneratorDraft(draft: GeneratorDraft): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // Storage full or blocked: the generator simply opens empty.
  }
}

/** The waiting draft, if any (read without removing it: React may run an initializer twice). */
export function readGeneratorDraft(): GeneratorDraft | null {
  try {
    const text = sessionStorage.getItem(KEY);
    if (!text) return null;
    const draft = JSON.parse(text) as GeneratorDraft;
    const keyframesOk = draft.keyframes === undefined || Array.isArray(draft.keyframes.referenceImages);
    return typeof draft.description === 'string' && typeof draft.inputs === 'object' && keyframesOk ? draft : null;
  } catch {
    return null;
  }
}

/** Forgets the draft once the generator has shown it (a reload then shows an empty generator). */
export function clearGeneratorDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
}

const settingsText = (video: GenerationRecord) =>
  video.settings && Object.keys(video.settings).length > 0 ? JSON.stringify(video.settings, null, 2) : '';

/** The model to keep: the video's own when this server can still run it (and it takes an image, for Continue). */
function modelFor(video: GenerationRecord, models: ModelInfo[], needsImage: boolean): string | null {
  const fits = (m: ModelInfo) => m.available && (!needsImage || m.inputs.includes('image'));
  const own = models.find((m) => m.id === video.model);
  if (own && fits(own)) return own.id;
  if (!needsImage) return null;
  return (models.find((m) => m.isDefault && fits(m)) ?? models.find(fits))?.id ?? null;
}

/**
 * Remix: the video's prompt, settings, model and the inputs whose files still exist (the image, video
 * and audio, the end frame and the reference images), and what is gone of the rest.
 */
export function remixDraft(video: GenerationRecord, models: ModelInfo[]): GeneratorDraft {
  const { endImage, referenceImages = [], ...inputs } = video.inputs ?? {};
  return {
    origin: 'remix',
    description: video.prompt,
    audioEnabled: video.hasAudio,
    advancedSettings: settingsText(video),
    isEconomy: video.isEconomy ?? false,
    model: modelFor(video, models, false),
    inputs,
    keyframes: { ...(endImage ? { endImage } : {}), referenceImages },
    gone: video.goneInputs ?? [],
  };
}

/** Continue: the last frame as the image, the prompt to edit, the same settings, a model that takes an image. */
export function continueDraft(video: GenerationRecord, models: ModelInfo[], lastFrame: string): GeneratorDraft {
  return {
    origin: 'continue',
    description: video.prompt,
    audioEnabled: video.hasAudio,
    advancedSettings: settingsText(video),
    isEconomy: video.isEconomy ?? false,
    model: modelFor(video, models, true),
    inputs: { image: lastFrame },
  };
}

/** Whether this server has a model that can start from an image (Continue needs one). */
export const canContinue = (models: ModelInfo[] | undefined) =>
  (models ?? []).some((m) => m.available && m.inputs.includes('image'));
