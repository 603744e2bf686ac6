import { useMutation } from '@tanstack/react-query';

import { type EnhanceTextAnswer, type EnhanceTextRequest, enhanceTextAnswerSchema } from '../../../../shared/ai';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/prompts/enhance-text: the enhanced prompt, and its resultId (a generation that uses it names it). */
export async function enhancePrompt(request: EnhanceTextRequest): Promise<EnhanceTextAnswer> {
  const response = await apiRequest('POST', '/api/prompts/enhance-text', request);
  return enhanceTextAnswerSchema.parse(await response.json());
}

export function useEnhancePrompt() {
  return useMutation({ mutationFn: enhancePrompt });
}
