import { useMutation } from '@tanstack/react-query';

import { type CreditsPaymentIntent, creditsPaymentIntentResponseSchema } from '../../../../shared/money/payments';
import { postJson } from './post-json';

/** POST /api/credits/payment-intent: the PaymentIntent the embedded card form pays; the server prices it. */
export async function createCreditsPaymentIntent(credits: number): Promise<CreditsPaymentIntent> {
  return postJson('/api/credits/payment-intent', { credits }, creditsPaymentIntentResponseSchema);
}

export function useCreateCreditsPaymentIntent() {
  return useMutation({ mutationFn: createCreditsPaymentIntent });
}
