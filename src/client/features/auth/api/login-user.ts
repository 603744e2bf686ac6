import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type AuthUser, authUserSchema, type Login } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { authQueryKey } from '../../../lib/query-keys';

/** POST /api/auth/login with email and password. */
export async function loginUser(input: Login): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/login', input);
  return authUserSchema.parse(await response.json());
}

export function useLoginUser({ onSuccess }: { onSuccess: (user: AuthUser) => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: loginUser,
    onSuccess: (user) => {
      client.setQueryData(authQueryKey, user);
      onSuccess(user);
    },
  });
}
