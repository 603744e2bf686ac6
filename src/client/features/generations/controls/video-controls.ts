import { DEFAULT_GENERATION_DURATION } from '../../../../shared/generations';
import { type RequestControls, requestRefusal } from '../../../../shared/model-fit';
import {
  type AspectRatio,
  CAMERA_MOVES,
  type CameraMove,
  type ModelInfo,
  RESOLUTIONS,
  renderedShape,
  type Resolution,
} from '../../../../shared/models';

/** The shape, length and camera a user picked in the generator; each absent means the model's default. */
export interface VideoControls {
  aspectRatio?: AspectRatio;
  duration?: number;
  resolution?: Resolution;
  /** Absent: no camera move asked for. */
  cameraMove?: CameraMove;
}

/** What a video with these controls is rendered at on this model (what the request sends, and is priced at). */
export interface FittedControls {
  aspectRatio: AspectRatio;
  duration: number;
  resolution: Resolution;
  cameraMove: CameraMove | null;
}

/**
 * The controls as the chosen model can take them: a pick it renders stays; otherwise its default
 * (the same `renderedShape` the server charges); a duration moves to the nearest it renders; a
 * camera move it does not honour is dropped.
 */
export function fitControls(
  model: Pick<ModelInfo, 'aspectRatios' | 'resolutions' | 'durations' | 'cameraMoves'>,
  controls: VideoControls,
  isEconomy: boolean,
): FittedControls {
  const shape = renderedShape(model, {
    aspectRatio:
      controls.aspectRatio && model.aspectRatios.includes(controls.aspectRatio) ? controls.aspectRatio : null,
    resolution: controls.resolution && model.resolutions.includes(controls.resolution) ? controls.resolution : null,
    isEconomy,
    duration: controls.duration ?? DEFAULT_GENERATION_DURATION,
  });
  const cameraMove =
    controls.cameraMove && model.cameraMoves.includes(controls.cameraMove) ? controls.cameraMove : null;
  return { ...shape, cameraMove };
}

const controlsKey = (userId: string) => `reelsmith:generator-controls:${userId}`;
// Not 'reelsmith:generator-draft': that is a Remix's fields, handed to the generator (generator-draft.ts).
const draftSwitchKey = (userId: string) => `reelsmith:generator-draft-switch:${userId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** A value kept in this browser (undefined when absent, unreadable or not JSON). */
function readKept(key: string): unknown {
  try {
    return JSON.parse(storage()?.getItem(key) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

function keep(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full store: the choice lasts for this visit only.
  }
}

/** The controls this user picked last (this browser), checked value by value. */
export function rememberedControls(userId: string | undefined): VideoControls {
  if (!userId) return {};
  const raw = readKept(controlsKey(userId));
  return typeof raw === 'object' && raw !== null ? rememberedFrom(raw as Record<string, unknown>) : {};
}

/** The valid controls among some values (anything else is dropped). */
function rememberedFrom(value: Record<string, unknown>): VideoControls {
  const controls: VideoControls = {};
  if (value.aspectRatio === '16:9' || value.aspectRatio === '9:16' || value.aspectRatio === '1:1')
    controls.aspectRatio = value.aspectRatio;
  if (
    typeof value.duration === 'number' &&
    Number.isInteger(value.duration) &&
    value.duration >= 1 &&
    value.duration <= 60
  )
    controls.duration = value.duration;
  if (RESOLUTIONS.includes(value.resolution as Resolution)) controls.resolution = value.resolution as Resolution;
  if (CAMERA_MOVES.includes(value.cameraMove as CameraMove)) controls.cameraMove = value.cameraMove as CameraMove;
  return controls;
}

/** Keeps this user's picks for their next visit (this browser only). */
export function rememberControls(userId: string | undefined, controls: VideoControls): void {
  if (userId) keep(controlsKey(userId), controls);
}

/** Whether this user left the Draft switch on (this browser). */
export function rememberedDraft(userId: string | undefined): boolean {
  return userId ? readKept(draftSwitchKey(userId)) === true : false;
}

/** Keeps the Draft switch as this user left it, for their next visit (this browser only). */
export function rememberDraft(userId: string | undefined, isDraft: boolean): void {
  if (userId) keep(draftSwitchKey(userId), isDraft);
}

/**
 * Settings text (a Remix of a video, or typed by the user) with the shape and camera keys taken out
 * into the controls; the rest (seed, negative prompt) stays as text.
 */
export function splitControls(text: string): { controls: VideoControls; advancedSettings: string } {
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch {
    return { controls: {}, advancedSettings: text };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { controls: {}, advancedSettings: text };
  const { aspectRatio, resolution, cameraMove, ...rest } = value as Record<string, unknown>;
  const controls = rememberedFrom({ aspectRatio, resolution, cameraMove });
  if (Object.keys(controls).length === 0) return { controls, advancedSettings: text };
  return { controls, advancedSettings: Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 2) : '' };
}

/** The shape and camera keys some settings carry (typed in the JSON box), as picks. */
export function shapeKeysOf(settings: { aspectRatio?: AspectRatio; resolution?: Resolution; cameraMove?: CameraMove }) {
  const picks: VideoControls = {};
  if (settings.aspectRatio) picks.aspectRatio = settings.aspectRatio;
  if (settings.resolution) picks.resolution = settings.resolution;
  if (settings.cameraMove) picks.cameraMove = settings.cameraMove;
  return picks;
}

/**
 * The models Compare with another model offers beside the chosen one: the other available models
 * that take this request as it is sent (its inputs, keyframes and reference images, shape, resolution
 * and camera move), by the rule the server refuses with (`requestRefusal`), so it never refuses the pair.
 */
export function compareCandidates(
  models: ModelInfo[] | undefined,
  first: Pick<ModelInfo, 'id'> | undefined,
  request: RequestControls | null,
): ModelInfo[] {
  if (!models || !first || !request) return [];
  return models.filter((m) => m.available && m.id !== first.id && !requestRefusal(m, request));
}
