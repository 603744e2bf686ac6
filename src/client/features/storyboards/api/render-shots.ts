import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CreatedGenerationRecord, createdGenerationSchema } from '../../../../shared/generations';
import { type RenderedShots, renderedShotsSchema } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';
import { balanceQueryKey } from '../../../lib/query-keys';
import { storyboardQueryKey } from './query-keys';

const boardPath = (id: string) => `/api/storyboards/${encodeURIComponent(id)}`;

/** POST /api/storyboards/:id/shots/:shotId/takes: a take of one shot, charged as any video. */
export async function renderShot(boardId: string, shotId: string): Promise<CreatedGenerationRecord> {
  const response = await apiRequest('POST', `${boardPath(boardId)}/shots/${encodeURIComponent(shotId)}/takes`, {});
  return createdGenerationSchema.parse(await response.json());
}

/** POST /api/storyboards/:id/render: every shot with no take yet; what started and what waits, with why. */
export async function renderMissingShots(boardId: string): Promise<RenderedShots> {
  const response = await apiRequest('POST', `${boardPath(boardId)}/render`, {});
  return renderedShotsSchema.parse(await response.json());
}

/** POST /api/storyboards/:id/export: the film of the takes in use (free), answered as its video record. */
export async function exportStoryboard(boardId: string): Promise<CreatedGenerationRecord> {
  const response = await apiRequest('POST', `${boardPath(boardId)}/export`);
  return createdGenerationSchema.parse(await response.json());
}

/** After a render or an export the board is read again (its new takes, states and price), and the balance. */
function useRefreshAfter(boardId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: storyboardQueryKey(boardId) }),
      queryClient.invalidateQueries({ queryKey: balanceQueryKey }),
    ]);
  };
}

export function useRenderShot(boardId: string) {
  const refresh = useRefreshAfter(boardId);
  return useMutation({ mutationFn: (shotId: string) => renderShot(boardId, shotId), onSuccess: refresh });
}

export function useRenderMissingShots(boardId: string) {
  const refresh = useRefreshAfter(boardId);
  return useMutation({ mutationFn: () => renderMissingShots(boardId), onSuccess: refresh });
}

export function useExportStoryboard(boardId: string) {
  const refresh = useRefreshAfter(boardId);
  return useMutation({ mutationFn: () => exportStoryboard(boardId), onSuccess: refresh });
}
