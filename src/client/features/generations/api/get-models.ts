import { queryOptions, useQuery } from '@tanstack/react-query';

import { type ModelInfo, modelListSchema } from '../../../../shared/generations';
import { apiRequest } from '../../../lib/api-client';
import { modelsQueryKey } from './query-keys';

/** GET /api/models: every model and whether this server can run it. */
export async function getModels(): Promise<ModelInfo[]> {
  const response = await apiRequest('GET', '/api/models');
  return modelListSchema.parse(await response.json()).models;
}

export function modelsQueryOptions() {
  return queryOptions({ queryKey: modelsQueryKey, queryFn: getModels });
}

export function useModels() {
  return useQuery(modelsQueryOptions());
}
