import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type CheckoutSuccess, checkoutSuccessResponseSchema } from '../../../../shared/money/payments';
import { postJson, refreshAfterPurchase } from './post-json';

/** POST /api/credits/checkout-success: the server checks the Checkout session with Stripe and credits it once. */
export async function confirmCheckoutSession(sessionId: string): Promise<CheckoutSuccess> {
  return postJson('/api/credits/checkout-success', { sessionId }, checkoutSuccessResponseSchema);
}

export function useConfirmCheckoutSession() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmCheckoutSession, onSuccess: () => refreshAfterPurchase(queryClient) });
}
