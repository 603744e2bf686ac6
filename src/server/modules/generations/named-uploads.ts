import type { GenerationInput, GenerationInputs } from '../../db/schema';

/**
 * Every upload a generation names: its inputs, end frame and reference images. Deleting the
 * generation (by its owner or by the record sweep) discards them.
 */
export function namedUploadIds(row: {
  inputs: GenerationInputs;
  endImage: GenerationInput | null;
  referenceImages: GenerationInput[];
}): string[] {
  return [
    ...Object.values(row.inputs).map((input) => input.uploadId),
    ...(row.endImage ? [row.endImage.uploadId] : []),
    ...row.referenceImages.map((r) => r.uploadId),
  ];
}
