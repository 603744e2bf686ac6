import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type MessageBody, messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { generationsQueryKey } from './query-keys';

/** DELETE /api/video-generation/{id}: removes the video, its inputs and its record. */
export async function deleteGeneration(id: string): Promise<MessageBody> {
  const response = await apiRequest('DELETE', `/api/video-generation/${encodeURIComponent(id)}`);
  return messageSchema.parse(await response.json());
}

export function useDeleteGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGeneration,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: generationsQueryKey });
    },
  });
}
