import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved from the session cookie by the auth module's hook. */
    user: UserRow | null;
    /** Hash of the current session token, when signed in. */
    sessionId: string | null;
  }
}

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The signed-in administrator, or a 401 (signed out) or 403 (anyone else). Decided from the session only. */
export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden('You do not have administrator privileges to access this page', 'not_admin');
  return user;
}
