import { queryOptions, useQuery } from '@tanstack/react-query';

import { type StoryboardSummary, storyboardListSchema } from '../../../../shared/storyboards';
import { apiRequest } from '../../../lib/api-client';
import { storyboardsQueryKey } from './query-keys';

/** GET /api/storyboards: name, shots, shots with a finished take, last edit. */
export async function getStoryboards(): Promise<StoryboardSummary[]> {
  const response = await apiRequest('GET', storyboardsQueryKey[0]);
  return storyboardListSchema.parse(await response.json()).storyboards;
}

export function storyboardsQueryOptions() {
  return queryOptions({ queryKey: storyboardsQueryKey, queryFn: getStoryboards, staleTime: 0 });
}

export function useStoryboards() {
  return useQuery(storyboardsQueryOptions());
}
