import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type GenerationJob, generationJobSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { generationJobsQueryKey, recentJobsQueryKey } from './query-keys';

async function getJobs(url: string): Promise<GenerationJob[]> {
  const response = await apiRequest('GET', url);
  return z.array(generationJobSchema).parse(await response.json());
}

export function generationJobsQueryOptions() {
  return queryOptions({ queryKey: generationJobsQueryKey, queryFn: () => getJobs('/api/video-generation-jobs') });
}

/** The history page's list of every job. */
export function useGenerationJobs() {
  return useQuery(generationJobsQueryOptions());
}

/** The generator's 'Recent History' card: the latest 3 jobs, refreshed while any is unfinished. */
export function useRecentJobs() {
  return useQuery({
    queryKey: recentJobsQueryKey,
    queryFn: () => getJobs('/api/video-generation-jobs/recent'),
    refetchInterval: (query) =>
      query.state.data?.some((job) => job.status === 'pending' || job.status === 'processing') ? 5000 : false,
  });
}
