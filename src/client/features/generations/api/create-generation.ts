import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CreateGeneration, type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { generationStatusQueryKey, userStatusQueryKey } from '../../../lib/query-keys';
import { applyGenerationChange } from './live-cache';
import { recentJobsQueryKey } from './query-keys';

/** POST /api/video-generation: queues a video; the server prices and charges it. */
export async function createGeneration(body: CreateGeneration): Promise<GenerationRecord> {
  const response = await apiRequest('POST', '/api/video-generation', body);
  return generationRecordSchema.parse(await response.json());
}

/**
 * Queues a video: the new record goes into every cached list at once (the media page opens on it),
 * then what shows credits and recent jobs is read again (spec section 4; live updates follow).
 */
export function useCreateGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGeneration,
    onSuccess: async (record) => {
      applyGenerationChange(queryClient, record);
      await Promise.all(
        [userStatusQueryKey, generationStatusQueryKey, recentJobsQueryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
