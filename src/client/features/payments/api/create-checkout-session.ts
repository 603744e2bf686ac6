import { useMutation } from '@tanstack/react-query';

import { creditsCheckoutResponseSchema } from '../../../../shared/money/payments';
import { browserNavigation } from '../../../lib/browser-navigation';
import { postJson } from './post-json';

/** POST /api/credits/checkout: a Stripe Checkout page for this many credits; the browser goes there next. */
export async function createCheckoutSession(creditsAmount: number): Promise<string> {
  const { checkoutUrl } = await postJson('/api/credits/checkout', { creditsAmount }, creditsCheckoutResponseSchema);
  return checkoutUrl;
}

/** Creates the session, then leaves the app for Stripe's hosted page. */
export function useCreateCheckoutSession() {
  return useMutation({
    mutationFn: createCheckoutSession,
    onSuccess: (checkoutUrl) => browserNavigation.assign(checkoutUrl),
  });
}
