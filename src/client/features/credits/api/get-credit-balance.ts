import { useQuery } from '@tanstack/react-query';

import { type CreditBalance, creditBalanceSchema } from '../../../../shared/money/credits';
import { apiRequest } from '../../../lib/api-client';
import { creditBalanceQueryKey } from '../../../lib/query-keys';

/** GET /api/credits/balance */
export async function getCreditBalance(): Promise<CreditBalance> {
  const response = await apiRequest('GET', '/api/credits/balance');
  return creditBalanceSchema.parse(await response.json());
}

/** The dashboard polls the balance every 10 s (spec section 7). */
export function useCreditBalance({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: creditBalanceQueryKey, queryFn: getCreditBalance, enabled, refetchInterval: 10_000 });
}
