import { queryOptions, useQuery } from '@tanstack/react-query';

import { type FinishingTool, finishingCatalogueSchema } from '../../../../shared/finishing';
import { apiRequest } from '../../../lib/api-client';
import { finishingToolsQueryKey } from './query-keys';

/** GET /api/finishing: every finishing tool, with whether this server can run it. */
export async function getFinishingTools(): Promise<FinishingTool[]> {
  const response = await apiRequest('GET', '/api/finishing');
  return finishingCatalogueSchema.parse(await response.json()).tools;
}

// The operator changes the tools in MODELS_CONFIG, which a page read once is current enough for.
export function finishingToolsQueryOptions() {
  return queryOptions({ queryKey: finishingToolsQueryKey, queryFn: getFinishingTools, staleTime: Infinity });
}

export function useFinishingTools() {
  return useQuery(finishingToolsQueryOptions());
}
