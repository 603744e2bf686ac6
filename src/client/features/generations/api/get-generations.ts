import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { getJsonWithEtag } from '../../../lib/api-client';
import { useLiveUpdatesActive } from '../../../lib/live-events';
import { isUnfinished } from '../format';
import { generationsQueryKey } from './query-keys';

/** The spec's 5-second poll, now only the fallback of live updates (decision 011). */
export const FALLBACK_POLL_MS = 5000;

/** GET /api/video-generation: the user's videos, newest first (304 when unchanged). */
export async function getGenerations(signal?: AbortSignal): Promise<GenerationRecord[]> {
  return z.array(generationRecordSchema).parse(await getJsonWithEtag('/api/video-generation', signal));
}

export function generationsQueryOptions() {
  return queryOptions({ queryKey: generationsQueryKey, queryFn: () => getGenerations() });
}

/**
 * The dashboard's and the media page's videos. Live updates keep them current; only when the
 * stream fails do they poll, every 5 s while a video is unfinished, never in a hidden tab.
 */
export function useGenerations() {
  const live = useLiveUpdatesActive();
  return useQuery({
    ...generationsQueryOptions(),
    refetchInterval: (query) =>
      !live && query.state.data?.some((video) => isUnfinished(video.status)) ? FALLBACK_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
