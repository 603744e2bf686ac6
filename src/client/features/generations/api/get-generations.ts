import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type GenerationRecord, generationRecordSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { generationsQueryKey } from './query-keys';

/** GET /api/video-generation: the user's videos, newest first. */
export async function getGenerations(): Promise<GenerationRecord[]> {
  const response = await apiRequest('GET', '/api/video-generation');
  return z.array(generationRecordSchema).parse(await response.json());
}

export function generationsQueryOptions() {
  return queryOptions({ queryKey: generationsQueryKey, queryFn: getGenerations });
}

/** The dashboard and the media page poll every 5 s (spec section 7). */
export function useGenerations({ refetchInterval = 5000 }: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...generationsQueryOptions(), refetchInterval });
}
