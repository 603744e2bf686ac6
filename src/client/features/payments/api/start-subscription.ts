import { useMutation } from '@tanstack/react-query';

import { clientSecretResponseSchema } from '../../../../shared/money/payments';
import { postJson } from './post-json';

/** POST /api/payments/start-subscription: the client secret of the daily subscription's first invoice. */
export async function startSubscription(): Promise<string> {
  const { clientSecret } = await postJson('/api/payments/start-subscription', undefined, clientSecretResponseSchema);
  return clientSecret;
}

export function useStartSubscription() {
  return useMutation({ mutationFn: startSubscription });
}
