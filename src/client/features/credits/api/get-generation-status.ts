import { useQuery } from '@tanstack/react-query';

import { type GenerationStatus, generationStatusSchema } from '../../../../shared/money/plans';
import { getJsonWithEtag } from '../../../lib/api-client';
import { generationStatusQueryKey } from '../../../lib/query-keys';

/** GET /api/user/generation-status: today's daily generations, extra generations and the subscription (304 when unchanged). */
export async function getGenerationStatus(): Promise<GenerationStatus> {
  return generationStatusSchema.parse(await getJsonWithEtag(generationStatusQueryKey[0]));
}

export function useGenerationStatus({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: generationStatusQueryKey, queryFn: getGenerationStatus, enabled });
}
