import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type AccountDelete,
  type AccountName,
  type EmailChange,
  type EmailChangeStatus,
  emailChangeStatusSchema,
  type PasswordChange,
} from '../../../../shared/accounts';
import { type AuthUser, authUserSchema, messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { authQueryKey } from '../../../lib/query-keys';
import { securityEventsQueryKey } from './security-events';
import { tokensQueryKey } from './tokens';

export const emailChangeQueryKey = ['/api/account/email'] as const;

/** PATCH /api/account: the name; the answer is the signed-in user as stored now. */
export async function updateName(name: AccountName): Promise<AuthUser> {
  const response = await apiRequest('PATCH', '/api/account', name);
  return authUserSchema.parse(await response.json());
}

export function useUpdateName() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateName,
    onSuccess: (user) => client.setQueryData(authQueryKey, user),
  });
}

/** GET /api/account/email: the address waiting for its link, if any. */
export async function fetchEmailChange(): Promise<EmailChangeStatus> {
  const response = await apiRequest('GET', '/api/account/email');
  return emailChangeStatusSchema.parse(await response.json());
}

export function useEmailChange() {
  return useQuery({ queryKey: emailChangeQueryKey, queryFn: fetchEmailChange });
}

/** POST /api/account/email: mails a link to the new address; the email changes when it is followed. */
export async function requestEmailChange(input: EmailChange): Promise<EmailChangeStatus> {
  const response = await apiRequest('POST', '/api/account/email', input);
  return emailChangeStatusSchema.parse(await response.json());
}

export function useRequestEmailChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (status) => client.setQueryData(emailChangeQueryKey, status),
  });
}

/** DELETE /api/account/email: the pending address's link stops working. */
export async function cancelEmailChange(): Promise<EmailChangeStatus> {
  const response = await apiRequest('DELETE', '/api/account/email');
  return emailChangeStatusSchema.parse(await response.json());
}

export function useCancelEmailChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelEmailChange,
    onSuccess: (status) => client.setQueryData(emailChangeQueryKey, status),
  });
}

/**
 * POST /api/account/password: every other session and every access token ends; this session is kept.
 * Answers the server's sentence.
 */
export async function changePassword(input: PasswordChange): Promise<string> {
  const response = await apiRequest('POST', '/api/account/password', input);
  return messageSchema.parse(await response.json()).message;
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The tokens were revoked and the change is listed among the security events.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: tokensQueryKey }),
        client.invalidateQueries({ queryKey: securityEventsQueryKey }),
      ]),
  });
}

/** DELETE /api/account: the account and all its data; the session ends with it. */
export async function deleteAccount(input: AccountDelete): Promise<string> {
  const response = await apiRequest('DELETE', '/api/account', input);
  return messageSchema.parse(await response.json()).message;
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
