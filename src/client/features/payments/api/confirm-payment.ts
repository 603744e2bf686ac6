import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type GenerationStatus, generationStatusSchema } from '../../../../shared/money/plans';
import { postJson, refreshAfterPurchase } from './post-json';

/**
 * POST /api/payments/confirm: after the card form succeeds on /subscribe the server looks the
 * payment up at Stripe, so the pack or subscription counts at once, without waiting for a webhook.
 */
export async function confirmPayment(paymentIntentId: string | undefined): Promise<GenerationStatus> {
  return postJson('/api/payments/confirm', paymentIntentId ? { paymentIntentId } : {}, generationStatusSchema);
}

export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPayment,
    // Refetched whether or not the check succeeded: a webhook may have done the work already.
    onSettled: () => refreshAfterPurchase(queryClient),
  });
}
