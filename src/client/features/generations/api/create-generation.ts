import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CreateGeneration, type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { generationStatusQueryKey, userStatusQueryKey } from '../../../lib/query-keys';
import { generationJobsQueryKey, generationsQueryKey, recentJobsQueryKey } from './query-keys';

/** POST /api/video-generation: queues a video; the server prices and charges it. */
export async function createGeneration(body: CreateGeneration): Promise<GenerationRecord> {
  const response = await apiRequest('POST', '/api/video-generation', body);
  return generationRecordSchema.parse(await response.json());
}

/** Queues a video, then refreshes what shows credits and jobs. */
export function useCreateGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGeneration,
    onSuccess: async () => {
      await Promise.all(
        [userStatusQueryKey, generationStatusQueryKey, recentJobsQueryKey, generationJobsQueryKey, generationsQueryKey].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
