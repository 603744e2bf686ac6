import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import {
  type CostEstimate,
  type CostEstimateRequest,
  costEstimateRequestSchema,
  costEstimateSchema,
  estimateCost as estimateLocally,
} from '../../../../shared/money/pricing';
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
  if (estimate) return { totalCost: estimate.totalCost, estimate, isFallback: false };
  // Without the server's answer: the same prices from src/shared/money/pricing.ts (the server
  // charges these), or the spec's 1-or-3 when the inputs cannot be read.
  const inputs = costEstimateRequestSchema.safeParse(request);
  if (inputs.success) {
    const local = estimateLocally(inputs.data);
    return { totalCost: local.totalCost, estimate: query.isFetched ? local : null, isFallback: query.isFetched };
  }
  return { totalCost: fallbackCost(Boolean(request.hasAudio)), estimate: null, isFallback: query.isFetched };
}
