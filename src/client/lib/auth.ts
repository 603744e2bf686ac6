import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { AuthUser } from '../../shared/auth';
import { apiRequest } from './api-client';
import { authCheck } from './auth-request';
import { browserNavigation } from './browser-navigation';
import { authQueryKey } from './query-keys';

export interface AuthState {
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

export function useAuth(): AuthState {
  const query = useQuery({
    queryKey: authQueryKey,
    queryFn: authCheck,
    retry: false,
    // A failed check (offline, server down) is not retried by every component that mounts: each
    // retry puts the query back to pending, the router shows its spinner, and the pages remount.
    retryOnMount: false,
    staleTime: 30_000,
    gcTime: 5 * 60_000,
    // Authentication is re-checked when the window regains focus (docs/product-rules.md, Browser timings).
    refetchOnWindowFocus: true,
  });
  const user = query.data ?? null;
  return { user, isLoading: query.isLoading, isAuthenticated: user !== null };
}

async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/logout');
  } catch (error) {
    // The spec sends the user home even when logout fails.
    console.warn('Logout failed', error);
  }
}

/** Logs out, clears every cached query and reloads the landing page. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      client.clear();
      browserNavigation.assign('/');
    },
  });
}

const SIGNED_OUT_EVERYWHERE = 'You have been signed out on every device.';

async function logoutEverywhere(): Promise<string> {
  const response = await apiRequest('POST', '/api/auth/logout-all');
  const body: unknown = await response.json().catch(() => null);
  const message = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).message : null;
  return typeof message === 'string' && message ? message : SIGNED_OUT_EVERYWHERE;
}

/**
 * Ends every session of the account, this one included (POST /api/auth/logout-all), then opens
 * /login with the server's sentence as its notice. A failure stays on the page for the caller to show.
 */
export function useLogoutEverywhere() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logoutEverywhere,
    onSuccess: (message) => {
      client.clear();
      browserNavigation.assign(`/login?message=${encodeURIComponent(message)}`);
    },
  });
}
