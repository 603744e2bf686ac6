import { queryOptions, useQuery } from '@tanstack/react-query';

import { type AdminStats, adminStatsSchema } from '../../../../shared/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminStatsQueryKey } from './query-keys';

/** GET /api/admin/stats: the four tiles, counted over all users. */
export async function getAdminStats(): Promise<AdminStats> {
  const response = await apiRequest('GET', '/api/admin/stats');
  return adminStatsSchema.parse(await response.json());
}

export function adminStatsQueryOptions() {
  return queryOptions({ queryKey: adminStatsQueryKey, queryFn: getAdminStats });
}

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
