import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type Storyboard, type StoryboardRequest, storyboardSchema } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';
import { storyboardQueryKey, storyboardsQueryKey } from './query-keys';

/** POST /api/storyboards: a new board, answered whole. */
export async function createStoryboard(body: StoryboardRequest): Promise<Storyboard> {
  const response = await apiRequest('POST', storyboardsQueryKey[0], body);
  return storyboardSchema.parse(await response.json());
}

/** Makes a board; its editor opens on the answer without reading it again. */
export function useCreateStoryboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStoryboard,
    onSuccess: async (board) => {
      queryClient.setQueryData(storyboardQueryKey(board.id), board);
      await queryClient.invalidateQueries({ queryKey: storyboardsQueryKey, exact: true });
    },
  });
}
