import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type OwnTakedown, ownTakedownSchema } from '../../../../shared/safety';
import { apiRequest } from '../../../lib/api-client';
import { ownTakedownsQueryKey } from './query-keys';

/** GET /api/safety/takedowns: the signed-in owner's videos that were taken down, with their appeals. */
export async function fetchOwnTakedowns(): Promise<OwnTakedown[]> {
  const response = await apiRequest('GET', '/api/safety/takedowns');
  return z.array(ownTakedownSchema).parse(await response.json());
}

export function useOwnTakedowns() {
  // A takedown can happen while the owner is elsewhere: looked for again when they come back to the tab.
  return useQuery({
    queryKey: ownTakedownsQueryKey,
    queryFn: fetchOwnTakedowns,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: true,
  });
}
