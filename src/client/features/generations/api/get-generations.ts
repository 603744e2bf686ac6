import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { getJsonWithEtag } from '../../../lib/api-client';
import { useLiveUpdatesActive } from '../../../lib/live-events';
import { isUnfinished } from '../format';
import { generationsQueryKey } from './query-keys';

/** The spec's 5-second poll, now only the fallback of live updates (decision 011). */
export const FALLBACK_POLL_MS = 5000;

/** Recent History shows the latest this many. */
export const RECENT_COUNT = 3;

/** GET /api/video-generation: the user's videos, newest first (304 when unchanged). */
export async function getGenerations(signal?: AbortSignal): Promise<GenerationRecord[]> {
  return z.array(generationRecordSchema).parse(await getJsonWithEtag('/api/video-generation', signal));
}

export function generationsQueryOptions() {
  return queryOptions({ queryKey: generationsQueryKey, queryFn: () => getGenerations() });
}

const everyVideo = (videos: GenerationRecord[]) => videos;
/** The latest videos (the list is newest first). */
export const latestVideos = (videos: GenerationRecord[]) => videos.slice(0, RECENT_COUNT);

/**
 * The one list query. Live updates keep it current; only when the stream fails is it polled,
 * every 5 s while a video is unfinished, never in a hidden tab. Views of it (every video, the
 * latest three) are `select`s, so they share one request and one cache.
 */
function useGenerationsQuery<T>(select: (videos: GenerationRecord[]) => T) {
  const live = useLiveUpdatesActive();
  return useQuery({
    ...generationsQueryOptions(),
    select,
    refetchInterval: (query) =>
      !live && query.state.data?.some((video) => isUnfinished(video.status)) ? FALLBACK_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** Every video: the dashboard, the media page and the history page. */
export function useGenerations() {
  return useGenerationsQuery(everyVideo);
}

/** The generator's Recent History: the latest three of the same list. */
export function useRecentGenerations() {
  return useGenerationsQuery(latestVideos);
}
