import { useMutation } from '@tanstack/react-query';

import { type AnalyzeImageRequest, analyzeImageAnswerSchema, type ImageAnalysis } from '../../../../shared/ai';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/prompts/analyze-image: `imageUrl` is the objectPath of the user's own upload. */
export async function analyzeImage(request: AnalyzeImageRequest): Promise<ImageAnalysis> {
  const response = await apiRequest('POST', '/api/prompts/analyze-image', request);
  return analyzeImageAnswerSchema.parse(await response.json()).data;
}

export function useAnalyzeImage() {
  return useMutation({ mutationFn: analyzeImage });
}
