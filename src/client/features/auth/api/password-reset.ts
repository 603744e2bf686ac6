import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  type PasswordResetConfirm,
  type PasswordResetRequest,
  PASSWORD_RESET_REQUESTED_MESSAGE,
} from '../../../../shared/accounts';
import { type AuthUser, authUserSchema, messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { authQueryKey } from '../../../lib/query-keys';

/** POST /api/auth/password-reset: the same answer whether or not the email has an account. */
export async function requestPasswordReset(input: PasswordResetRequest): Promise<string> {
  const response = await apiRequest('POST', '/api/auth/password-reset', input);
  return messageSchema.safeParse(await response.json()).data?.message ?? PASSWORD_RESET_REQUESTED_MESSAGE;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/** POST /api/auth/password-reset/confirm: sets the new password and signs this browser in. */
export async function confirmPasswordReset(input: PasswordResetConfirm): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/password-reset/confirm', input);
  return authUserSchema.parse(await response.json());
}

export function useConfirmPasswordReset({ onSuccess }: { onSuccess: () => void }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: (user) => {
      client.setQueryData(authQueryKey, user);
      onSuccess();
    },
  });
}
