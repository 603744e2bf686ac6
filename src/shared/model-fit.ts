import { CAMERA_MOVE_LABELS, type AspectRatio, type CameraMove, type ModelInfo, type Resolution } from './models';

// What a model can take of a request, one rule for both sides: the server refuses a request with the
// first refusal here (a 400 with its code and sentence, generations.service.ts), and the generator
// offers only what passes it (the Compare picker's models, the sentence above Generate).

/** The parts of a generation request a model may not take. */
export interface RequestControls {
  imageFile?: string | null;
  videoFile?: string | null;
  audioFile?: string | null;
  /** Keyframes: the end frame (imageFile is then the start frame). */
  endImageFile?: string | null;
  referenceImageFiles?: readonly string[];
  aspectRatio?: AspectRatio | null;
  resolution?: Resolution | null;
  cameraMove?: CameraMove | null;
}

/** Why a model cannot take a request: a stable code and a sentence naming the control and the model. */
export interface Refusal {
  code: string;
  message: string;
}

/** The model facts these rules read (GET /api/models). */
export type FitModel = Pick<
  ModelInfo,
  | 'name'
  | 'inputs'
  | 'aspectRatios'
  | 'resolutions'
  | 'cameraMoves'
  | 'endFrame'
  | 'referenceImages'
  | 'referencesAlone'
>;

/** Each kind of upload in words, as the sentences about inputs name it. */
export const INPUT_WORDS = { image: 'an image', video: 'a video', audio: 'an audio track' } as const;

const INPUT_FIELDS = [
  ['image', 'imageFile', INPUT_WORDS.image],
  ['video', 'videoFile', INPUT_WORDS.video],
  ['audio', 'audioFile', INPUT_WORDS.audio],
] as const;

const moveWords = (move: CameraMove) => CAMERA_MOVE_LABELS[move].toLowerCase();

/** The first input, shape or camera move the model cannot take, or null. */
export function controlsRefusal(model: FitModel, request: RequestControls): Refusal | null {
  for (const [kind, field, words] of INPUT_FIELDS) {
    if (request[field] && !model.inputs.includes(kind))
      return {
        code: 'input_not_supported',
        message: `${model.name} cannot take ${words}. Remove it, or choose a model that takes one.`,
      };
  }
  const { aspectRatio, resolution, cameraMove } = request;
  if (aspectRatio && !model.aspectRatios.includes(aspectRatio))
    return {
      code: 'aspect_ratio_not_supported',
      message: `${model.name} makes ${model.aspectRatios.join(', ')} videos, not ${aspectRatio}.`,
    };
  if (resolution && !model.resolutions.includes(resolution))
    return {
      code: 'resolution_not_supported',
      message: `${model.name} renders ${model.resolutions.join(', ')}, not ${resolution}.`,
    };
  if (cameraMove && !model.cameraMoves.includes(cameraMove))
    return {
      code: 'camera_move_not_supported',
      message:
        model.cameraMoves.length > 0
          ? `${model.name} cannot take the camera move ${moveWords(cameraMove)}. It takes ${model.cameraMoves.map(moveWords).join(', ')}.`
          : `${model.name} cannot take a camera move. Remove it, or choose a model that takes one.`,
    };
  return null;
}

/**
 * The first keyframe or reference rule the request breaks, or null: an end frame for a model
 * without `endFrame`, an end frame without a start image, more reference images than the model's
 * `referenceImages`, the same image twice, and references with frames for a model whose provider
 * takes them on a separate call (`referencesAlone`).
 */
export function keyframesRefusal(model: FitModel, request: RequestControls): Refusal | null {
  if (request.endImageFile) {
    if (!model.endFrame)
      return {
        code: 'end_frame_not_supported',
        message: `${model.name} cannot take an end frame. Remove it, or choose a model that takes a start and an end frame.`,
      };
    if (!request.imageFile)
      return {
        code: 'end_frame_without_start',
        message: `${model.name} needs a start frame with the end frame. Add a start image, or remove the end frame.`,
      };
  }
  const references = request.referenceImageFiles ?? [];
  if (references.length === 0) return null;
  if (model.referenceImages === 0)
    return {
      code: 'reference_images_not_supported',
      message: `${model.name} cannot take reference images. Remove them, or choose a model that takes them.`,
    };
  if (references.length > model.referenceImages)
    return {
      code: 'too_many_reference_images',
      message: `${model.name} takes at most ${model.referenceImages} reference ${model.referenceImages === 1 ? 'image' : 'images'}, not ${references.length}.`,
    };
  if (new Set(references).size !== references.length)
    return {
      code: 'duplicate_reference_image',
      message: 'The same reference image is named twice. Send each one once.',
    };
  if (model.referencesAlone && (request.imageFile || request.endImageFile))
    return {
      code: 'references_with_frames',
      message: `${model.name} takes reference images or a start and end frame, not both in one video. Remove one of them.`,
    };
  return null;
}

/** Everything a model refuses of a request, in the server's order: inputs, shape and camera, then keyframes. */
export function requestRefusal(model: FitModel, request: RequestControls): Refusal | null {
  return controlsRefusal(model, request) ?? keyframesRefusal(model, request);
}
