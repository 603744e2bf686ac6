import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type MessageBody, messageSchema } from '../../../../shared/auth';
import type { StoryboardSummary } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';
import { storyboardQueryKey, storyboardsQueryKey } from './query-keys';

/** DELETE /api/storyboards/:id: the board goes; its takes and films stay among the user's videos. */
export async function deleteStoryboard(id: string): Promise<MessageBody> {
  const response = await apiRequest('DELETE', `/api/storyboards/${encodeURIComponent(id)}`);
  return messageSchema.parse(await response.json());
}

export function useDeleteStoryboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStoryboard,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<StoryboardSummary[]>(storyboardsQueryKey, (list) => list?.filter((b) => b.id !== id));
      queryClient.removeQueries({ queryKey: storyboardQueryKey(id) });
    },
  });
}
