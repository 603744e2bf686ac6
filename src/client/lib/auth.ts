import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import type { AuthUser } from '../../shared/auth';
import { apiRequest } from './api-client';
import { browserNavigation } from './browser-navigation';
import { authQueryKey } from './query-keys';

/**
 * A light check of the fields the router relies on. The shared zod schema is deliberately not
 * used here: this runs before every page, including the landing page, and zod would add about
 * 24 kB gzipped to its JavaScript. The lazily loaded login and register calls parse with it.
 */
function isAuthUser(body: unknown): body is AuthUser {
  if (typeof body !== 'object' || body === null) return false;
  const { id, email, displayName, isAdmin } = body as Record<string, unknown>;
  return (
    typeof id === 'string' &&
    typeof email === 'string' &&
    typeof displayName === 'string' &&
    typeof isAdmin === 'boolean'
  );
}

/** 401 means signed out; any other failure is an error the caller treats as "not signed in". */
export async function fetchAuthUser(): Promise<AuthUser | null> {
  const response = await fetch('/api/auth/user', { credentials: 'include' });
  if (response.status === 401) return null;
  if (!response.ok) throw new Error(`Auth check failed: ${response.status}`);
  const body: unknown = await response.json();
  if (!isAuthUser(body)) throw new Error('Auth check failed: unexpected response');
  return body;
}

export interface AuthState {
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

export function useAuth(): AuthState {
  const query = useQuery({
    queryKey: authQueryKey,
    queryFn: fetchAuthUser,
    retry: false,
    // A failed check (offline, server down) is not retried by every component that mounts: each
    // retry puts the query back to pending, the router shows its spinner, and the pages remount.
    retryOnMount: false,
    staleTime: 30_000,
    gcTime: 5 * 60_000,
    // Authentication is re-checked when the window regains focus (spec section 4).
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
