import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../context';
import { resolveSession } from './auth.service';
import { readSessionToken, setSessionCookie } from './session-cookie';

/** Resolves the session cookie on every API request into request.user (null when signed out). */
export function registerAuthHooks(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = readSessionToken(request);
    if (!token) return;
    const session = await resolveSession(ctx, token);
    if (!session) return;
    request.user = session.user;
    request.sessionId = session.id;
    if (session.renewedUntil) setSessionCookie(reply, ctx.config, token, session.renewedUntil);
  });
}

/** Whether the request carries a session cookie at all (valid or not): without one it is surely signed out. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return readSessionToken(request) !== null;
}
