import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../context';
import { hiddenRoute } from '../../http/openapi-words';
import { SUSPENDED_CODE } from '../../../shared/safety';
import { AppError } from '../../lib/app-error';
import * as auth from './auth.service';
import {
  CALLBACK_PATHS,
  type ExternalProvider,
  ExternalSignInError,
  finishExternalSignIn,
  startExternalSignIn,
} from './external-sign-in.service';
import { clearFlowCookie, readFlowCookie, setFlowCookie } from './flow-cookie';
import { accountForIdentity, linkIdentity } from './identities.service';
import { setSessionCookie } from './session-cookie';

const START_PATHS: Record<ExternalProvider, string> = { oidc: '/api/login', google: '/api/auth/google' };

/** Browser redirects, left out of the API reference: where each goes. */
const REDIRECTS: Record<ExternalProvider, { start: string; callback: string }> = {
  oidc: {
    start: 'a browser redirect to the OpenID Connect provider',
    callback: 'the OpenID Connect provider’s redirect back',
  },
  google: { start: 'a browser redirect to Google', callback: 'Google’s redirect back' },
};

function loginError(reply: FastifyReply, error: ExternalSignInError) {
  return reply.redirect(`/login?error=${error.code}&details=${encodeURIComponent(error.details)}`, 302);
}

/**
 * External sign-in (docs/product-rules.md, Accounts and sign-in): GET /api/login (any OpenID Connect provider) and GET
 * /api/auth/google send the browser to the provider; the callbacks sign in, link or create the
 * account. Every failure ends on /login?error=…&details=…, never on an error page.
 */
export const externalSignInRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  for (const provider of ['oidc', 'google'] as const) {
    app.get(
      START_PATHS[provider],
      { config: { rateLimit: { max: 30, timeWindow: '1 minute' }, doc: hiddenRoute(REDIRECTS[provider].start) } },
      async (request, reply) => {
        try {
          const { url, flow } = await startExternalSignIn(ctx, provider);
          setFlowCookie(reply, ctx.config, ctx.secret, request.user ? { ...flow, linkUserId: request.user.id } : flow);
          return await reply.redirect(url, 302);
        } catch (error) {
          request.log.warn(
            { provider, reason: error instanceof Error ? error.message : String(error) },
            'external sign-in could not start',
          );
          return loginError(
            reply,
            error instanceof ExternalSignInError
              ? error
              : new ExternalSignInError('oauth_error', 'The sign-in could not start.'),
          );
        }
      },
    );

    app.get(
      CALLBACK_PATHS[provider],
      { config: { rateLimit: { max: 30, timeWindow: '1 minute' }, doc: hiddenRoute(REDIRECTS[provider].callback) } },
      async (request, reply) => {
        const flow = readFlowCookie(request, ctx.secret, provider, ctx.now());
        clearFlowCookie(reply, ctx.config);
        try {
          if (!flow) {
            throw new ExternalSignInError(
              provider === 'google' ? 'google_auth_failed' : 'oauth_error',
              'This sign-in expired or was started in another browser. Please try again.',
            );
          }
          const profile = await finishExternalSignIn(ctx, flow, new URL(`${ctx.config.publicUrl}${request.url}`));
          if (flow.linkUserId && request.user?.id === flow.linkUserId) {
            await linkIdentity(ctx, flow.linkUserId, profile);
            return await reply.redirect(`/account?linked=${provider}`, 302);
          }
          const user = await accountForIdentity(ctx, profile);
          await signIn(ctx, request, reply, user);
          return await reply.redirect('/dashboard', 302);
        } catch (error) {
          return handleCallbackError(request, reply, provider, error, Boolean(flow?.linkUserId && request.user));
        }
      },
    );
  }
};

async function signIn(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: Parameters<typeof auth.startSession>[1],
) {
  try {
    // A sign-in replaces any session this browser had.
    if (request.sessionId) await auth.logout(ctx, request.sessionId);
    const session = await auth.startSession(ctx, user, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    setSessionCookie(reply, ctx.config, session.token, session.expiresAt);
  } catch (error) {
    // A suspended account (issue 44) hears so on the sign-in page, not that saving failed.
    if (error instanceof AppError && error.code === SUSPENDED_CODE)
      throw new ExternalSignInError('account_suspended', error.message);
    request.log.error({ err: error }, 'external sign-in: the session could not be saved');
    throw new ExternalSignInError('session_save_failed', 'Please try signing in again.');
  }
}

function handleCallbackError(
  request: FastifyRequest,
  reply: FastifyReply,
  provider: ExternalProvider,
  error: unknown,
  linking: boolean,
) {
  const known =
    error instanceof ExternalSignInError
      ? error
      : new ExternalSignInError(
          'oauth_error',
          'Something went wrong on our side while signing you in. Please try again.',
        );
  if (error instanceof ExternalSignInError)
    request.log.warn({ provider, code: error.code, details: error.details }, 'external sign-in refused');
  else request.log.error({ err: error, provider }, 'external sign-in failed');
  if (linking) return reply.redirect(`/account?error=${encodeURIComponent(known.details)}`, 302);
  return loginError(reply, known);
}
