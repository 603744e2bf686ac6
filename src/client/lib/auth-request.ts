import type { AuthUser } from '../../shared/auth';

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

/**
 * Set while this browser was last known signed in. It only decides which page's code the entry
 * starts loading before the answer to /api/auth/user arrives; the answer alone decides what shows.
 */
const SIGNED_IN_HINT = 'reelsmith:signed-in';

function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT, '1');
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // Storage refused (private mode, quota): the hint is an optimisation only.
  }
}

export function wasSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === '1';
  } catch {
    return false;
  }
}

/** 401 means signed out; any other failure is an error the caller treats as "not signed in". */
export async function fetchAuthUser(): Promise<AuthUser | null> {
  const response = await fetch('/api/auth/user', { credentials: 'include' });
  if (response.status === 401) {
    rememberSignedIn(false);
    return null;
  }
  if (!response.ok) throw new Error(`Auth check failed: ${response.status}`);
  const body: unknown = await response.json();
  if (!isAuthUser(body)) throw new Error('Auth check failed: unexpected response');
  rememberSignedIn(true);
  return body;
}

let earlyCheck: Promise<AuthUser | null> | null = null;

/**
 * Started by the entry before React and the pages have loaded, so the answer arrives while they do.
 * The first auth query takes this answer instead of asking again.
 */
export function beginAuthCheck(): void {
  earlyCheck ??= fetchAuthUser();
  // Handled by whoever takes it; never an unhandled rejection if nobody does.
  earlyCheck.catch(() => undefined);
}

/** The early check while nobody has taken it (the app's start waits on it before the first render). */
export function pendingAuthCheck(): Promise<AuthUser | null> | null {
  return earlyCheck;
}

/** The app's start put this check's answer in the cache itself: the next check asks the server. */
export function settleAuthCheck(check: Promise<AuthUser | null>): void {
  if (earlyCheck === check) earlyCheck = null;
}

/** The early answer once (later checks, such as on window focus, ask the server again). */
export function authCheck(): Promise<AuthUser | null> {
  const pending = earlyCheck;
  earlyCheck = null;
  return pending ?? fetchAuthUser();
}
