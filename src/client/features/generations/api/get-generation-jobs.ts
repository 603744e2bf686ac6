import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type GenerationJob, generationJobSchema } from '../../../../shared/generations';
import { getJsonWithEtag } from '../../../lib/api-client';
import { useLiveUpdatesActive } from '../../../lib/live-events';
import { isUnfinished } from '../format';
import { FALLBACK_POLL_MS } from './get-generations';
import { generationJobsQueryKey, recentJobsQueryKey } from './query-keys';

async function getJobs(url: string, signal?: AbortSignal): Promise<GenerationJob[]> {
  return z.array(generationJobSchema).parse(await getJsonWithEtag(url, signal));
}

export function generationJobsQueryOptions() {
  return queryOptions({ queryKey: generationJobsQueryKey, queryFn: () => getJobs('/api/video-generation-jobs') });
}

/** The history page's list of every job (kept current by live updates). */
export function useGenerationJobs() {
  return useQuery(generationJobsQueryOptions());
}

/** The generator's 'Recent History' card: the latest 3 jobs, live; polled only when the stream fails and one is unfinished. */
export function useRecentJobs() {
  const live = useLiveUpdatesActive();
  return useQuery({
    queryKey: recentJobsQueryKey,
    queryFn: () => getJobs('/api/video-generation-jobs/recent'),
    refetchInterval: (query) =>
      !live && query.state.data?.some((job) => isUnfinished(job.status)) ? FALLBACK_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
