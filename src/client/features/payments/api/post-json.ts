import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import { authQueryKey, balanceQueryKey } from '../../../lib/query-keys';
import { receiptsQueryKey, subscriptionDetailsQueryKey } from './query-keys';

/** POSTs a JSON body (or none) and parses the answer with the shared schema. */
export async function postJson<T>(url: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
  const response = await apiRequest('POST', url, body);
  return schema.parse(await response.json());
}

/** What a purchase changes: the user, the credits and the daily and extra generations. */
const PURCHASE_QUERY_KEYS = [authQueryKey, balanceQueryKey, subscriptionDetailsQueryKey, receiptsQueryKey];

/** Refetches everything a purchase changes. */
export async function refreshAfterPurchase(queryClient: QueryClient): Promise<void> {
  await Promise.all(PURCHASE_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
