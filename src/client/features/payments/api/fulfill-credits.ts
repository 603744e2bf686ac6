import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CheckoutSuccess, fulfillResponseSchema } from '../../../../shared/money/payments';
import { postJson, refreshAfterPurchase } from './post-json';

interface FulfillCredits {
  paymentIntentId: string;
  credits: number;
}

/** POST /api/credits/fulfill: after the card form succeeds the server checks the payment with Stripe and credits it once. */
export async function fulfillCredits(body: FulfillCredits): Promise<CheckoutSuccess> {
  return postJson('/api/credits/fulfill', body, fulfillResponseSchema);
}

export function useFulfillCredits() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fulfillCredits, onSuccess: () => refreshAfterPurchase(queryClient) });
}
