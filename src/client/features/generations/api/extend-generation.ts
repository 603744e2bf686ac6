import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  type CreatedGenerationRecord,
  createdGenerationSchema,
  type ExtendGeneration,
} from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { balanceQueryKey } from '../../../lib/query-keys';
import { applyGenerationChange } from './live-cache';

/**
 * POST /api/video-generation/:id/extend: a continuation of the video from its last frame, joined to
 * it into one new, longer video (charged as the continuation).
 */
export async function extendGeneration(id: string, body: ExtendGeneration): Promise<CreatedGenerationRecord> {
  const response = await apiRequest('POST', `/api/video-generation/${encodeURIComponent(id)}/extend`, body);
  return createdGenerationSchema.parse(await response.json());
}

/** Extends a video: the new record goes into the cached list at once, then the balance is read again. */
export function useExtendGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ExtendGeneration }) => extendGeneration(id, body),
    onSuccess: async (record) => {
      applyGenerationChange(queryClient, record);
      await queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    },
  });
}
