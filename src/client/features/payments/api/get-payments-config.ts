import { queryOptions, useQuery } from '@tanstack/react-query';

import { type PaymentsConfig, paymentsConfigSchema } from '../../../../shared/money/payments';
import { apiRequest } from '../../../lib/api-client';
import { paymentsConfigQueryKey } from './query-keys';

/** GET /api/payments/config: whether this server takes payments, and Stripe's publishable key. */
export async function getPaymentsConfig(): Promise<PaymentsConfig> {
  const response = await apiRequest('GET', paymentsConfigQueryKey[0]);
  return paymentsConfigSchema.parse(await response.json());
}

/** Read once per page load: the server's keys do not change while it runs. */
export function paymentsConfigQueryOptions() {
  return queryOptions({ queryKey: paymentsConfigQueryKey, queryFn: getPaymentsConfig, staleTime: Infinity });
}

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQueryOptions());
}

/** The key to load Stripe.js with, or null when this server takes no payments. */
export function publishableKeyOf(config: PaymentsConfig): string | null {
  return config.enabled ? config.publishableKey : null;
}
