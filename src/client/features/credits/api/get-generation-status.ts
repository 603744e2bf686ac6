import { useQuery } from '@tanstack/react-query';

import { type GenerationStatus, generationStatusSchema } from '../../../../shared/money/plans';
import { apiRequest } from '../../../lib/api-client';
import { generationStatusQueryKey } from '../../../lib/query-keys';

/** GET /api/user/generation-status: today's daily generations, extra generations and the subscription. */
export async function getGenerationStatus(): Promise<GenerationStatus> {
  const response = await apiRequest('GET', generationStatusQueryKey[0]);
  return generationStatusSchema.parse(await response.json());
}

export function useGenerationStatus({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: generationStatusQueryKey, queryFn: getGenerationStatus, enabled });
}
