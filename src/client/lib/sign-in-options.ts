import { useQuery } from '@tanstack/react-query';

import type { SignInOptions } from '../../shared/accounts';

/** GET /api/auth/providers: which external sign-ins and whether password reset by email this server offers. */
export const signInOptionsQueryKey = ['/api/auth/providers'] as const;

const NONE: SignInOptions = {
  oidc: null,
  google: false,
  passwordReset: false,
  registrationChallenge: false,
  operatorContact: null,
  registrationOpen: true,
};

/**
 * A light check instead of the shared zod schema: the landing page (eager, kept small) shows the
 * external sign-in buttons too.
 */
function toSignInOptions(body: unknown): SignInOptions {
  if (typeof body !== 'object' || body === null) return NONE;
  const { oidc, google, passwordReset, registrationChallenge, operatorContact, registrationOpen } = body as Record<
    string,
    unknown
  >;
  const label = typeof oidc === 'object' && oidc !== null ? (oidc as Record<string, unknown>).label : null;
  return {
    oidc: typeof label === 'string' && label ? { label } : null,
    google: google === true,
    passwordReset: passwordReset === true,
    registrationChallenge: registrationChallenge === true,
    operatorContact: typeof operatorContact === 'string' && operatorContact ? operatorContact : null,
    // Only a server that says it is closed is: an older one says nothing and takes accounts.
    registrationOpen: registrationOpen !== false,
  };
}

export async function fetchSignInOptions(): Promise<SignInOptions> {
  const response = await fetch('/api/auth/providers', { credentials: 'include' });
  if (!response.ok) return NONE;
  return toSignInOptions(await response.json().catch(() => null));
}

/** The server's sign-in options; until they arrive (or if they cannot), nothing external is offered. */
export function useSignInOptions(): SignInOptions & { isLoading: boolean } {
  const query = useQuery({
    queryKey: signInOptionsQueryKey,
    queryFn: fetchSignInOptions,
    staleTime: Infinity,
    retry: false,
  });
  return { ...(query.data ?? NONE), isLoading: query.isLoading };
}

/**
 * Where 'Sign In Required' and the payments Unauthorized notice send the visitor: the spec's
 * /api/login when this server has an OpenID Connect provider there, else the /login form.
 */
export function signInPath(options: SignInOptions): string {
  return options.oidc ? '/api/login' : '/login';
}
