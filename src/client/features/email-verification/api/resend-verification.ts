import { useMutation } from '@tanstack/react-query';

import { messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/verify-email/resend: the same answer whether a mail was sent or a limit held it back. */
export async function resendVerification(): Promise<string> {
  const response = await apiRequest('POST', '/api/auth/verify-email/resend');
  return messageSchema.parse(await response.json()).message;
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
