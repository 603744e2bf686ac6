import type { FastifyRequest } from 'fastify';
import type { TokenScope } from '../../shared/api-tokens';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved from the session cookie (or a bearer token) by the auth module's hook. */
    user: UserRow | null;
    /** Hash of the current session token, when signed in with a cookie. */
    sessionId: string | null;
    /** The personal access token the request came with (`Authorization: Bearer rs_...`), else null. */
    accessToken: { id: string; scopes: readonly TokenScope[] } | null;
  }
  interface FastifyContextConfig {
    /**
     * The scope a personal access token needs on this route. A route without one refuses every
     * bearer token with 403 (default deny): admin, payment, token and account-management routes
     * never name one.
     */
    tokenScope?: TokenScope;
  }
}

const BEARER = /^Bearer[ \t]+(\S*)[ \t]*$/i;

/**
 * The credential of an `Authorization: Bearer ...` header ('' when the header says Bearer and
 * nothing usable), or null when the request has no bearer header (a browser's request).
 */
export function bearerCredential(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^bearer(\s|$)/i.test(header)) return null;
  return BEARER.exec(header)?.[1] ?? '';
}

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * The signed-in administrator, or a 401 (signed out) or 403 (anyone else). Decided from the
 * session only: an administrator's access token is refused too.
 */
export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (request.accessToken) throw tokenNotAllowed();
  if (!user.isAdmin) throw forbidden('You do not have administrator privileges to access this page', 'not_admin');
  return user;
}

/** A cookie session only (token management, account changes): 403 for a bearer token. */
export function requireSessionUser(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (request.accessToken) throw tokenNotAllowed();
  return user;
}

export const tokenNotAllowed = () =>
  forbidden('Access tokens cannot be used here. Sign in on the website to do this.', 'token_not_allowed');

/**
 * The rate limiter's key for routes limited per caller: the access token for token requests (each
 * token has its own budget), else the signed-in user, else the address.
 */
export function rateLimitKey(request: FastifyRequest): string {
  if (request.accessToken) return `token:${request.accessToken.id}`;
  return request.user?.id ?? request.ip;
}

/** The rate limiter's key for routes limited per person: the signed-in user (their tokens together), else the address. */
export function userRateLimitKey(request: FastifyRequest): string {
  return request.user?.id ?? request.ip;
}

/** A route's limit per person (userRateLimitKey): at most `max` calls in `timeWindow` ('1 minute'). */
export function perUserRateLimit(max: number, timeWindow: string) {
  return { rateLimit: { max, timeWindow, keyGenerator: userRateLimitKey } };
}
