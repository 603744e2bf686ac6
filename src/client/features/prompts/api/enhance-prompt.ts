import { useMutation } from '@tanstack/react-query';

import { type EnhanceTextRequest, enhanceTextAnswerSchema, type PromptEnhancement } from '../../../../shared/ai';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/prompts/enhance-text */
export async function enhancePrompt(request: EnhanceTextRequest): Promise<PromptEnhancement> {
  const response = await apiRequest('POST', '/api/prompts/enhance-text', request);
  return enhanceTextAnswerSchema.parse(await response.json()).data;
}

export function useEnhancePrompt() {
  return useMutation({ mutationFn: enhancePrompt });
}
