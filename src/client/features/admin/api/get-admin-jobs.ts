import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { type AdminJobsOverview, adminJobsOverviewSchema } from '../../../../shared/admin-jobs';
import type { GenerationStatus } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { adminJobsQueryKey } from './query-keys';

/** The console's filters; empty means all. */
export interface AdminJobsFilters {
  user: string;
  model: string;
  status: GenerationStatus | '';
}

export const EMPTY_JOBS_FILTERS: AdminJobsFilters = { user: '', model: '', status: '' };

/** The console refreshes this often (the queue moves on other people's jobs, which no event of ours names). */
export const JOBS_REFRESH_MS = 4000;

export function adminJobsUrl(filters: AdminJobsFilters): string {
  const search = new URLSearchParams();
  if (filters.user.trim()) search.set('user', filters.user.trim());
  if (filters.model) search.set('model', filters.model);
  if (filters.status) search.set('status', filters.status);
  const query = search.toString();
  return query ? `/api/admin/jobs?${query}` : '/api/admin/jobs';
}

/** GET /api/admin/jobs: the queue, running jobs, the day's failures and the filtered jobs. */
export async function getAdminJobs(filters: AdminJobsFilters): Promise<AdminJobsOverview> {
  const response = await apiRequest('GET', adminJobsUrl(filters));
  return adminJobsOverviewSchema.parse(await response.json());
}

export function adminJobsQueryOptions(filters: AdminJobsFilters) {
  return queryOptions({
    queryKey: [...adminJobsQueryKey, filters],
    queryFn: () => getAdminJobs(filters),
    refetchInterval: JOBS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useAdminJobs(filters: AdminJobsFilters) {
  return useQuery(adminJobsQueryOptions(filters));
}
