import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type AccessToken,
  type CreatedAccessToken,
  type CreateTokenRequest,
  createdTokenSchema,
  tokenListSchema,
} from '../../../../shared/api-tokens';
import { messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';

export const tokensQueryKey = ['/api/account/tokens'] as const;

/** GET /api/account/tokens: the user's personal access tokens, never their secrets. */
export async function fetchTokens(): Promise<AccessToken[]> {
  const response = await apiRequest('GET', '/api/account/tokens');
  return tokenListSchema.parse(await response.json()).tokens;
}

export function useTokens() {
  return useQuery({ queryKey: tokensQueryKey, queryFn: fetchTokens });
}

/** POST /api/account/tokens: the answer is the only time the token itself is shown. */
export async function createToken(request: CreateTokenRequest): Promise<CreatedAccessToken> {
  const response = await apiRequest('POST', '/api/account/tokens', request);
  return createdTokenSchema.parse(await response.json());
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}

/** DELETE /api/account/tokens/{id}: the token stops working at once. */
export async function revokeToken(id: string): Promise<string> {
  const response = await apiRequest('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`);
  return messageSchema.parse(await response.json()).message;
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
