import { queryOptions, useQuery } from '@tanstack/react-query';

import type { GenerationRecord } from '../../../../shared/generations';
import { type Storyboard, storyboardSchema } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';
import { storyboardQueryKey } from './query-keys';

/**
 * While a take or a film renders, the board is read again this often: live events move each take's
 * progress in the cache (live-cache.ts); this catches what they cannot (a stream given up).
 */
const WHILE_RENDERING_MS = 4000;

/** GET /api/storyboards/:id */
export async function getStoryboard(id: string): Promise<Storyboard> {
  const response = await apiRequest('GET', `/api/storyboards/${encodeURIComponent(id)}`);
  return storyboardSchema.parse(await response.json());
}

export const isRunning = (record: Pick<GenerationRecord, 'status'>) =>
  record.status === 'pending' || record.status === 'processing';

/** Whether any take of the board, or its newest film, is still being made. */
export function isBoardRendering(board: Storyboard): boolean {
  const newestFilm = board.films[0];
  return board.shots.some((shot) => shot.takes.some(isRunning)) || (newestFilm !== undefined && isRunning(newestFilm));
}

export function storyboardQueryOptions(id: string) {
  return queryOptions({
    queryKey: storyboardQueryKey(id),
    queryFn: () => getStoryboard(id),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && isBoardRendering(query.state.data) ? WHILE_RENDERING_MS : false),
  });
}

export function useStoryboard(id: string) {
  return useQuery(storyboardQueryOptions(id));
}
