import { useQuery } from '@tanstack/react-query';

import { type WatchedVideo, watchedVideoSchema } from '../../../../shared/safety';
import { apiRequest } from '../../../lib/api-client';
import { watchedVideoQueryKey } from './query-keys';

/** GET /api/watch/:token: the shared video; 404 when it expired, was removed, or the link is wrong. */
export async function fetchWatchedVideo(token: string): Promise<WatchedVideo> {
  const response = await apiRequest('GET', `/api/watch/${encodeURIComponent(token)}`);
  return watchedVideoSchema.parse(await response.json());
}

export function useWatchedVideo(token: string) {
  return useQuery({ queryKey: watchedVideoQueryKey(token), queryFn: () => fetchWatchedVideo(token) });
}
