import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { FinishBody } from '../../../../shared/finishing';
import { type CreatedGenerationRecord, createdGenerationSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { balanceQueryKey } from '../../../lib/query-keys';

/** POST /api/video-generation/:id/finish: a new video, the original finished by a tool (charged as the tool prices it). */
export async function finishVideo(id: string, body: FinishBody): Promise<CreatedGenerationRecord> {
  const response = await apiRequest('POST', `/api/video-generation/${encodeURIComponent(id)}/finish`, body);
  return createdGenerationSchema.parse(await response.json());
}

/**
 * Finishes a video: `onStarted` puts the new record into the page's list at once (the videos are
 * another feature's cache, which the page hands in), then the balance is read again.
 */
export function useFinishVideo(onStarted: (record: CreatedGenerationRecord) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FinishBody }) => finishVideo(id, body),
    onSuccess: async (record) => {
      onStarted(record);
      await queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    },
  });
}
