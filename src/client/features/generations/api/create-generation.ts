import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  type CreatedGenerationRecord,
  createdGenerationSchema,
  type GenerationRequest,
} from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { balanceQueryKey } from '../../../lib/query-keys';
import { applyGenerationChange } from './live-cache';

/**
 * POST /api/video-generation: queues a video; the server joins the description and the audio
 * description into the engine's prompt, checks the named AI results, prices and charges it.
 */
export async function createGeneration(body: GenerationRequest): Promise<CreatedGenerationRecord> {
  const response = await apiRequest('POST', '/api/video-generation', body);
  return createdGenerationSchema.parse(await response.json());
}

/**
 * Queues a video: the new record goes into the cached list at once (the media page and Recent
 * History show it), then the balance is read again (docs/product-rules.md, Screens; live updates follow).
 */
export function useCreateGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGeneration,
    onSuccess: async (record) => {
      // Variations: every job the request started (one otherwise).
      for (const started of record.group) applyGenerationChange(queryClient, started);
      await queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    },
  });
}
