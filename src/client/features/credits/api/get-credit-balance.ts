import { useQuery } from '@tanstack/react-query';

import { type CreditBalance, creditBalanceSchema } from '../../../../shared/money/credits';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/credits/balance */
export async function getCreditBalance(): Promise<CreditBalance> {
  const response = await apiRequest('GET', '/api/credits/balance');
  return creditBalanceSchema.parse(await response.json());
}

/** The dashboard polls the balance every 10 s (spec section 7). */
export function useCreditBalance({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: ['/api/credits/balance'], queryFn: getCreditBalance, enabled, refetchInterval: 10_000 });
}
