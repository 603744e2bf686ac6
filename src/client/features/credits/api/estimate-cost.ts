import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { type CostEstimate, type CostEstimateRequest, costEstimateSchema } from '../../../../shared/money/pricing';
import { apiRequest } from '../../../lib/api-client';
import { costEstimateQueryKey } from './query-keys';

const estimateAnswerSchema = z.object({ success: z.literal(true), data: costEstimateSchema });

/** What the generator shows: the server's estimate, or the spec's local fallback when the call fails. */
export interface ShownEstimate {
  totalCost: number;
  estimate: CostEstimate | null;
  isFallback: boolean;
}

/** POST /api/credits/estimate: the server prices with the user's own plan. */
export async function estimateCost(request: CostEstimateRequest): Promise<CostEstimate> {
  const response = await apiRequest('POST', '/api/credits/estimate', request);
  return estimateAnswerSchema.parse(await response.json()).data;
}

/** The spec's fallback: 3 with audio, else 1. */
export function fallbackCost(hasAudio: boolean): number {
  return hasAudio ? 3 : 1;
}

/**
 * The estimate for the generator's current inputs, re-requested whenever they change; when the
 * call fails a warning is logged and the local estimate is used (spec section 7).
 */
export function useCostEstimate(request: CostEstimateRequest, enabled: boolean): ShownEstimate {
  const query = useQuery({
    queryKey: costEstimateQueryKey(request),
    queryFn: async () => {
      try {
        return await estimateCost(request);
      } catch (error) {
        console.warn('Cost estimate failed; using the local estimate.', error);
        return null;
      }
    },
    enabled,
    placeholderData: keepPreviousData,
  });
  const estimate = query.data ?? null;
  return estimate
    ? { totalCost: estimate.totalCost, estimate, isFallback: false }
    : { totalCost: fallbackCost(Boolean(request.hasAudio)), estimate: null, isFallback: query.isFetched };
}
