import { queryOptions, useQuery } from '@tanstack/react-query';

import { type SafetyOverview, safetyOverviewSchema } from '../../../../shared/safety';
import { apiRequest } from '../../../lib/api-client';
import { adminSafetyQueryKey } from './query-keys';

/** The queue refreshes this often: reports arrive from anyone, which no event of ours names. */
export const SAFETY_REFRESH_MS = 30_000;

/** GET /api/admin/safety: the open items, oldest first, and the figures. */
export async function getSafetyOverview(): Promise<SafetyOverview> {
  const response = await apiRequest('GET', '/api/admin/safety');
  return safetyOverviewSchema.parse(await response.json());
}

export const safetyOverviewQueryOptions = () =>
  queryOptions({
    queryKey: adminSafetyQueryKey,
    queryFn: getSafetyOverview,
    refetchInterval: SAFETY_REFRESH_MS,
  });

export function useSafetyOverview() {
  return useQuery(safetyOverviewQueryOptions());
}
