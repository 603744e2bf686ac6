import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

/**
 * The state of one external sign-in between /api/login (or /api/auth/google) and its callback:
 * state, nonce and PKCE verifier in a short-lived cookie signed with the installation secret, so
 * nothing is stored on the server and a tampered cookie is refused.
 */
export interface SignInFlow {
  provider: 'oidc' | 'google';
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Milliseconds since the epoch after which the flow is refused. */
  expiresAt: number;
  /** Set when a signed-in user started it from the account page: the identity is linked to them. */
  linkUserId?: string;
}

export const FLOW_COOKIE = 'rs_signin_flow';
export const FLOW_TTL_MS = 10 * 60 * 1000;
const COOKIE_PATH = '/api/';

function sign(secret: string, payload: string): string {
  const key = createHash('sha256').update(`sign-in-flow:${secret}`).digest();
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function setFlowCookie(reply: FastifyReply, config: Config, secret: string, flow: SignInFlow): void {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  reply.setCookie(FLOW_COOKIE, `${payload}.${sign(secret, payload)}`, {
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET navigation, which carries it.
    sameSite: 'lax',
    secure: config.secureCookies,
    path: COOKIE_PATH,
    maxAge: Math.floor(FLOW_TTL_MS / 1000),
  });
}

export function clearFlowCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(FLOW_COOKIE, { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: COOKIE_PATH });
}

/** The flow this browser started, or null when the cookie is absent, tampered with, expired or for another provider. */
export function readFlowCookie(
  request: FastifyRequest,
  secret: string,
  provider: SignInFlow['provider'],
  now: Date,
): SignInFlow | null {
  const value = request.cookies[FLOW_COOKIE];
  if (!value || value.length > 2048) return null;
  const [payload = '', signature = ''] = value.split('.');
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<SignInFlow>;
    const complete =
      typeof flow.state === 'string' &&
      typeof flow.nonce === 'string' &&
      typeof flow.codeVerifier === 'string' &&
      typeof flow.expiresAt === 'number';
    if (!complete || flow.provider !== provider || (flow.expiresAt ?? 0) < now.getTime()) return null;
    return flow as SignInFlow;
  } catch {
    return null;
  }
}
