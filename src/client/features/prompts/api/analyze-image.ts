import { useMutation } from '@tanstack/react-query';

import { type AnalyzeImageAnswer, type AnalyzeImageRequest, analyzeImageAnswerSchema } from '../../../../shared/ai';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/prompts/analyze-image: `imageUrl` is the objectPath of the user's own upload. The
 * answer's resultId names the suggested prompt (a generation that uses it names it).
 */
export async function analyzeImage(request: AnalyzeImageRequest): Promise<AnalyzeImageAnswer> {
  const response = await apiRequest('POST', '/api/prompts/analyze-image', request);
  return analyzeImageAnswerSchema.parse(await response.json());
}

export function useAnalyzeImage() {
  return useMutation({ mutationFn: analyzeImage });
}
