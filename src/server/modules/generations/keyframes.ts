import type { ModelInfo } from '../../../shared/models';
import { keyframesRefusal } from '../../../shared/model-fit';
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
 * Refuses an end frame or reference images the model cannot take, with the shared rule's sentence
 * naming the control and the model (`keyframesRefusal`, src/shared/model-fit.ts: the generator
 * offers only what it passes).
 */
export function checkKeyframes(model: ModelInfo, body: NewGeneration): void {
  const refusal = keyframesRefusal(model, body);
  if (refusal) throw badRequest(refusal.message, refusal.code);
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
