import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

export const SESSION_COOKIE = 'rs_session';

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: '/' });
}

export function readSessionToken(request: FastifyRequest): string | null {
  const value = request.cookies[SESSION_COOKIE];
  return value && value.length <= 128 ? value : null;
}
