import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { type AdminCosts, adminCostsSchema } from '../../../../shared/admin-costs';
import { apiRequest } from '../../../lib/api-client';
import { adminCostsQueryKey } from './query-keys';

/** GET /api/admin/costs: per UTC day and model, videos, credits charged, provider cost and margin. */
export async function getAdminCosts(days: number): Promise<AdminCosts> {
  const response = await apiRequest('GET', `/api/admin/costs?days=${days}`);
  return adminCostsSchema.parse(await response.json());
}

export function adminCostsQueryOptions(days: number) {
  return queryOptions({
    queryKey: [...adminCostsQueryKey, days],
    queryFn: () => getAdminCosts(days),
    placeholderData: keepPreviousData,
  });
}

export function useAdminCosts(days: number) {
  return useQuery(adminCostsQueryOptions(days));
}
