import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  billingPortalResponseSchema,
  type SubscriptionDetails,
  subscriptionDetailsSchema,
} from '../../../../shared/money/billing-account';
import { generationStatusSchema } from '../../../../shared/money/plans';
import { apiRequest } from '../../../lib/api-client';
import { postJson, refreshAfterPurchase } from './post-json';
import { subscriptionDetailsQueryKey } from './query-keys';

export async function getSubscriptionDetails(): Promise<SubscriptionDetails> {
  const response = await apiRequest('GET', subscriptionDetailsQueryKey[0]);
  return subscriptionDetailsSchema.parse(await response.json());
}

/** The subscription's next charge and whether the billing portal can open. */
export function useSubscriptionDetails(enabled: boolean) {
  return useQuery({ queryKey: subscriptionDetailsQueryKey, queryFn: getSubscriptionDetails, enabled });
}

/** POST /api/payments/cancel-subscription: ends the subscription at once (decision 012). */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postJson('/api/payments/cancel-subscription', undefined, generationStatusSchema),
    onSuccess: async () => {
      await refreshAfterPurchase(queryClient);
    },
  });
}

/** POST /api/payments/billing-portal: the address of a Stripe customer portal session. */
export function useBillingPortal() {
  return useMutation({
    mutationFn: async () =>
      (await postJson('/api/payments/billing-portal', undefined, billingPortalResponseSchema)).url,
  });
}
