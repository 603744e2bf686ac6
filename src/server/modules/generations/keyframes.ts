import type { ModelInfo } from '../../../shared/models';
import type { GenerationInput } from '../../db/schema';
import { badRequest } from '../../lib/app-error';
import type { NewGeneration } from './generation-request';

/**
 * Refuses an end frame or reference images the model cannot take, each with a sentence naming the
 * control and the model: an end frame for a model without `endFrame`, an end frame without a start
 * image, more reference images than the model's `referenceImages`, the same image twice, and
 * references with frames for a model whose provider takes them on a separate call (`referencesAlone`).
 */
export function checkKeyframes(model: ModelInfo, body: NewGeneration, referencesAlone: boolean): void {
  if (body.endImageFile) {
    if (!model.endFrame)
      throw badRequest(
        `${model.name} cannot take an end frame. Remove it, or choose a model that takes a start and an end frame.`,
        'end_frame_not_supported',
      );
    if (!body.imageFile)
      throw badRequest(
        `${model.name} needs a start frame with the end frame. Add a start image, or remove the end frame.`,
        'end_frame_without_start',
      );
  }
  const references = body.referenceImageFiles;
  if (references.length === 0) return;
  if (model.referenceImages === 0)
    throw badRequest(
      `${model.name} cannot take reference images. Remove them, or choose a model that takes them.`,
      'reference_images_not_supported',
    );
  if (references.length > model.referenceImages)
    throw badRequest(
      `${model.name} takes at most ${model.referenceImages} reference ${model.referenceImages === 1 ? 'image' : 'images'}, not ${references.length}.`,
      'too_many_reference_images',
    );
  if (new Set(references).size !== references.length)
    throw badRequest('The same reference image is named twice. Send each one once.', 'duplicate_reference_image');
  if (referencesAlone && (body.imageFile || body.endImageFile))
    throw badRequest(
      `${model.name} takes reference images or a start and end frame, not both in one video. Remove one of them.`,
      'references_with_frames',
    );
}

/** The upload ids a generation names beyond `inputs`: its end frame and reference images. */
export function keyframeUploadIds(row: {
  endImage: GenerationInput | null;
  referenceImages: GenerationInput[];
}): string[] {
  return [...(row.endImage ? [row.endImage.uploadId] : []), ...row.referenceImages.map((r) => r.uploadId)];
}
