import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import { bearerCredential, tokenNotAllowed } from '../../http/guards';
import { SUSPENDED_CODE, SUSPENDED_MESSAGE } from '../../../shared/safety';
import { AppError, forbidden } from '../../lib/app-error';
import { resolveBearerToken } from '../access-tokens/tokens.service';
import { resolveSession } from './auth.service';
import { readSessionToken, setSessionCookie } from './session-cookie';

/** Requests one access token may make a minute, across every route (routes have their own limits too). */
export const TOKEN_REQUESTS_PER_MINUTE = 600;

/**
 * Resolves the caller of every API request into request.user (null when signed out): a bearer
 * token (`Authorization: Bearer rs_...`) when the request has one, else the session cookie.
 * A bearer request never falls back to the cookie: a bad token is 401 whatever cookie came along,
 * and a route that names no `tokenScope` in its config refuses every token with 403.
 */
export function registerAuthHooks(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('accessToken', null);
  const perToken = app.createRateLimit({
    max: TOKEN_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `token:${request.accessToken?.id ?? ''}`,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const bearer = bearerCredential(request);
    if (bearer !== null) {
      const token = await resolveBearerToken(ctx, bearer);
      if (request.is404) return;
      const needed = request.routeOptions.config.tokenScope;
      if (!needed) throw tokenNotAllowed();
      if (!token.scopes.includes(needed))
        throw forbidden(`This access token does not have the "${needed}" scope this request needs.`, 'missing_scope');
      // A suspended account's tokens stop working with it (issue 44).
      if (token.user.suspendedAt) throw forbidden(SUSPENDED_MESSAGE, SUSPENDED_CODE);
      request.user = token.user;
      request.accessToken = { id: token.id, scopes: token.scopes };
      const limit = await perToken(request);
      if (!limit.isAllowed && limit.isExceeded)
        throw new AppError(429, 'rate_limited', 'Too many requests with this access token. Please wait a moment.', {
          'retry-after': String(Math.max(1, limit.ttlInSeconds)),
        });
      return;
    }
    const cookieToken = readSessionToken(request);
    if (!cookieToken) return;
    const session = await resolveSession(ctx, cookieToken);
    // A suspended account is signed out (its sessions ended when it was suspended; this is the backstop).
    if (!session || session.user.suspendedAt) return;
    request.user = session.user;
    request.sessionId = session.id;
    if (session.renewedUntil) setSessionCookie(reply, ctx.config, cookieToken, session.renewedUntil);
  });
}

/** Whether the request carries a session cookie at all (valid or not): without one it is surely signed out. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return readSessionToken(request) !== null;
}
