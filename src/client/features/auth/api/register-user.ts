import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type AuthUser, authUserSchema, type Register } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { authQueryKey } from '../../../lib/query-keys';

/** POST /api/auth/register: creates the account and signs it in. */
export async function registerUser(input: Register): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/register', input);
  return authUserSchema.parse(await response.json());
}

export function useRegisterUser({ onSuccess }: { onSuccess: (user: AuthUser) => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: (user) => {
      client.setQueryData(authQueryKey, user);
      onSuccess(user);
    },
  });
}
