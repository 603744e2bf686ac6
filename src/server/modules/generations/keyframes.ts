import type { GenerationInput } from '../../db/schema';

/** The upload ids a generation names beyond `inputs`: its end frame and reference images. */
export function keyframeUploadIds(row: {
  endImage: GenerationInput | null;
  referenceImages: GenerationInput[];
}): string[] {
  return [...(row.endImage ? [row.endImage.uploadId] : []), ...row.referenceImages.map((r) => r.uploadId)];
}
