import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { type AccountSignIns, accountSignInsSchema } from '../../../../shared/accounts';
import { messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';

export const signInsQueryKey = ['/api/account/sign-ins'] as const;

/** GET /api/account/sign-ins: the password flag and the linked external sign-ins. */
export async function fetchSignIns(): Promise<AccountSignIns> {
  const response = await apiRequest('GET', '/api/account/sign-ins');
  return accountSignInsSchema.parse(await response.json());
}

export function useSignIns() {
  return useQuery({ queryKey: signInsQueryKey, queryFn: fetchSignIns });
}

/** DELETE /api/account/identities/{id}: refused (409) for the last way to sign in. */
export async function removeIdentity(id: string): Promise<string> {
  const response = await apiRequest('DELETE', `/api/account/identities/${encodeURIComponent(id)}`);
  return messageSchema.parse(await response.json()).message;
}

export function useRemoveIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeIdentity,
    onSettled: () => client.invalidateQueries({ queryKey: signInsQueryKey }),
  });
}
