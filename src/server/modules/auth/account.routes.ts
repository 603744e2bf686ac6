import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountSignInsSchema,
  identityIdParamsSchema,
  PASSWORD_RESET_REQUESTED_MESSAGE,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  signInOptionsSchema,
} from '../../../shared/accounts';
import { securityEventListSchema } from '../../../shared/account-security';
import { authUserSchema, completedToursSchema, messageSchema, tourParamsSchema } from '../../../shared/auth';
import { DEFAULT_SUPPORT_EMAIL } from '../../config';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc, SETS_SESSION } from '../../http/openapi-words';
import { AppError } from '../../lib/app-error';
import { completeTour, presentAuthUser } from '../users/users.service';
import * as auth from './auth.service';
import { LAST_SIGN_IN_MESSAGE, listSignIns, removeIdentity } from './identities.service';
import { confirmPasswordReset, requestPasswordReset, settlePasswordResetMail } from './password-reset.service';
import { setSessionCookie } from './session-cookie';
import { listSecurityEvents } from './ways-in.service';

/** Who to ask for help: OPERATOR_CONTACT, else SUPPORT_EMAIL unless it is the built-in placeholder. */
function operatorContact(config: ServiceContext['config']): string | null {
  if (config.operatorContact) return config.operatorContact;
  return config.supportEmail === DEFAULT_SUPPORT_EMAIL ? null : config.supportEmail;
}

/** Sign-in options, password reset by email, and the account page's linked sign-ins. */
export const accountRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // Read on each request: mail can be set up on the settings page while the server runs.
  const accounts = () => ctx.config.accounts;
  app.addHook('onClose', async () => settlePasswordResetMail(ctx));

  app.get(
    '/api/auth/providers',
    {
      config: { doc: apiDoc('Sign-in', { summary: 'The sign-in options this server offers', public: true }) },
      schema: { response: { 200: signInOptionsSchema } },
    },
    async () => {
      const { oidc, google, mail } = accounts();
      return {
        oidc: oidc ? { label: oidc.buttonLabel } : null,
        google: google !== undefined,
        passwordReset: mail !== undefined,
        registrationChallenge: ctx.config.registrationChallenge !== undefined,
        registrationOpen: accounts().registrationOpen,
        operatorContact: operatorContact(ctx.config),
      };
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      config: {
        rateLimit: { max: 5, timeWindow: '15 minutes' },
        doc: apiDoc('Sign-in', {
          summary: 'Ask for a password reset email',
          public: true,
          errors: [
            {
              status: 404,
              code: 'password_reset_unavailable',
              message: 'Password reset by email is not available on this server. Please ask the administrator.',
            },
          ],
        }),
      },
      schema: { body: passwordResetRequestSchema, response: { 202: messageSchema } },
    },
    async (request, reply) => {
      if (!accounts().mail) {
        throw new AppError(
          404,
          'password_reset_unavailable',
          'Password reset by email is not available on this server. Please ask the administrator.',
        );
      }
      requestPasswordReset(ctx, request.body.email, request.log);
      return reply.status(202).send({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      config: {
        rateLimit: { max: 20, timeWindow: '15 minutes' },
        doc: apiDoc('Sign-in', {
          summary: 'Set a new password with a reset link’s token',
          public: true,
          errors: [
            {
              status: 400,
              code: 'reset_link_invalid',
              message: 'This reset link has expired or has already been used. Please ask for a new one.',
            },
          ],
          headers: { 200: SETS_SESSION },
        }),
      },
      schema: { body: passwordResetConfirmSchema, response: { 200: authUserSchema } },
    },
    async (request, reply) => {
      const user = await confirmPasswordReset(ctx, request.body);
      // Every session of the account ended; this browser gets a fresh one.
      const session = await auth.startSession(ctx, user, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      setSessionCookie(reply, ctx.config, session.token, session.expiresAt);
      return presentAuthUser(user);
    },
  );

  app.get(
    '/api/account/security-events',
    {
      config: {
        doc: apiDoc('Account', {
          summary: 'What ended ways into your account, and when',
          description:
            'The latest events that ended sessions, access tokens, webhook endpoints, linked sign-ins or emailed links: a verified sign-in taking the account over, a password reset or change, proving the email, an email change.',
        }),
      },
      schema: { response: { 200: securityEventListSchema } },
    },
    async (request) => listSecurityEvents(ctx, requireUser(request).id),
  );

  app.get(
    '/api/account/sign-ins',
    {
      config: { doc: apiDoc('Account', { summary: 'List the ways you sign in (password, linked providers)' }) },
      schema: { response: { 200: accountSignInsSchema } },
    },
    async (request) => listSignIns(ctx, requireUser(request)),
  );

  // A finished or skipped tour, remembered for the account so no other device starts it again.
  app.put(
    '/api/account/tours/:tour',
    {
      config: {
        rateLimit: { max: 30, timeWindow: '1 minute' },
        doc: apiDoc('Account', {
          summary: 'Mark an onboarding tour as done',
          description:
            'A finished or skipped tour (`first-time` or `generator`) is remembered for the account, so it does not start by itself again on any device. Answers the tours done so far; marking one twice changes nothing.',
          example: { completedTours: ['first-time'] },
        }),
      },
      schema: { params: tourParamsSchema, response: { 200: completedToursSchema } },
    },
    async (request) => ({ completedTours: await completeTour(ctx, requireUser(request).id, request.params.tour) }),
  );

  app.delete(
    '/api/account/identities/:id',
    {
      config: {
        doc: apiDoc('Account', {
          summary: 'Remove a linked sign-in',
          example: { message: 'The sign-in was removed from your account.' },
          errors: [
            { status: 404, code: 'identity_not_found', message: 'This sign-in is not linked to your account.' },
            { status: 409, code: 'last_sign_in', message: LAST_SIGN_IN_MESSAGE },
          ],
        }),
      },
      schema: { params: identityIdParamsSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await removeIdentity(ctx, requireUser(request).id, request.params.id);
      return { message: 'The sign-in was removed from your account.' };
    },
  );
};
