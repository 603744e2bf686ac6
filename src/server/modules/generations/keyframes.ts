import type { ModelInfo } from '../../../shared/models';
import type { ServiceContext } from '../../context';
import type { GenerationInput } from '../../db/schema';
import { badRequest } from '../../lib/app-error';
import { resolveUploadRef } from '../uploads/uploads.service';
import type { NewGeneration } from './generation-request';

/** The keyframe and reference inputs of a request, copied from their uploads like `inputs`. */
export interface KeyframeInputs {
  endImage: GenerationInput | null;
  referenceImages: GenerationInput[];
}

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

/** One image upload of the user's, refused with a sentence naming the field when it is not an image. */
async function imageInput(ctx: ServiceContext, userId: string, ref: string, field: string): Promise<GenerationInput> {
  const upload = await resolveUploadRef(ctx, userId, ref);
  if (upload.kind !== 'image')
    throw badRequest(
      `${field} must be an image file; that upload is ${upload.kind === 'audio' ? 'an audio track' : 'a video'}.`,
      'wrong_input_kind',
    );
  return {
    uploadId: upload.id,
    objectKey: upload.objectKey,
    contentType: upload.contentType,
    expiresAt: upload.expiresAt.toISOString(),
  };
}

/** The end frame and reference images as the user's own finished image uploads (the same check as imageFile's). */
export async function resolveKeyframeInputs(
  ctx: ServiceContext,
  userId: string,
  body: NewGeneration,
): Promise<KeyframeInputs> {
  const endImage = body.endImageFile ? await imageInput(ctx, userId, body.endImageFile, 'endImageFile') : null;
  const referenceImages: GenerationInput[] = [];
  for (const ref of body.referenceImageFiles)
    referenceImages.push(await imageInput(ctx, userId, ref, 'referenceImageFiles'));
  return { endImage, referenceImages };
}

/** The upload ids a generation names beyond `inputs`: its end frame and reference images. */
export function keyframeUploadIds(row: {
  endImage: GenerationInput | null;
  referenceImages: GenerationInput[];
}): string[] {
  return [...(row.endImage ? [row.endImage.uploadId] : []), ...row.referenceImages.map((r) => r.uploadId)];
}
