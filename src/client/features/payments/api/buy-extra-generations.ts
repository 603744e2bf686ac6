import { useMutation } from '@tanstack/react-query';

import type { ExtraPackName } from '../../../../shared/money/plans';
import { clientSecretResponseSchema } from '../../../../shared/money/payments';
import { postJson } from './post-json';

/** POST /api/payments/extra-generations: the client secret of an extra-generation pack's PaymentIntent. */
export async function buyExtraGenerations(pack: ExtraPackName): Promise<string> {
  const { clientSecret } = await postJson(
    '/api/payments/extra-generations',
    { package: pack },
    clientSecretResponseSchema,
  );
  return clientSecret;
}

export function useBuyExtraGenerations() {
  return useMutation({ mutationFn: buyExtraGenerations });
}
