import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authUserSchema, loginSchema, messageSchema, registerSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc, CLEARS_SESSION, hiddenRoute, SETS_SESSION } from '../../http/openapi-words';
import { presentAuthUser } from '../users/users.service';
import { accountChangesRoutes } from './account-changes.routes';
import { accountRoutes } from './account.routes';
import { emailVerificationRoutes } from './email-verification.routes';
import { sendVerificationMail } from './email-verification.service';
import * as auth from './auth.service';
import { externalSignInRoutes } from './external-sign-in.routes';
import { requireRegistrationChallengeSolved } from './registration-challenge';
import { registrationChallengeRoutes } from './registration-challenge.routes';
import { withRegistrationLimit } from './registration-limit.service';
import { renderLogoutPage } from './logout-page';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

function clientInfo(request: FastifyRequest): auth.ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/auth/register',
    {
      config: {
        doc: apiDoc('Sign-in', {
          summary: 'Create an account',
          public: true,
          requestExample: {
            email: 'ada@example.com',
            password: 'correct horse battery staple',
            firstName: 'Ada',
            lastName: 'Lovelace',
          },
          errors: [{ status: 409, code: 'email_taken', message: 'An account with this email already exists' }],
          headers: { 201: SETS_SESSION },
        }),
      },
      schema: { body: registerSchema, response: { 201: authUserSchema } },
    },
    async (request, reply) => {
      await requireRegistrationChallengeSolved(ctx, request.body.challengeSolution);
      const client = clientInfo(request);
      const session = await withRegistrationLimit(ctx, client.ip, () => auth.register(ctx, request.body, client));
      sendVerificationMail(ctx, session.user.id, request.log);
      setSessionCookie(reply, ctx.config, session.token, session.expiresAt);
      return reply.status(201).send(presentAuthUser(session.user));
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: {
        doc: apiDoc('Sign-in', {
          summary: 'Sign in',
          public: true,
          requestExample: { email: 'ada@example.com', password: 'correct horse battery staple' },
          errors: [{ status: 401, code: 'invalid_credentials', message: 'Invalid email or password' }],
          headers: { 200: SETS_SESSION },
        }),
      },
      schema: { body: loginSchema, response: { 200: authUserSchema } },
    },
    async (request, reply) => {
      // A sign-in replaces any session this browser had.
      if (request.sessionId) await auth.logout(ctx, request.sessionId);
      const session = await auth.login(ctx, request.body, clientInfo(request));
      setSessionCookie(reply, ctx.config, session.token, session.expiresAt);
      return presentAuthUser(session.user);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: {
        doc: apiDoc('Sign-in', {
          summary: 'Sign out',
          public: true,
          example: { message: 'You have been signed out.' },
          headers: { 200: CLEARS_SESSION },
        }),
      },
      schema: { response: { 200: messageSchema } },
    },
    async (request, reply) => {
      if (request.sessionId) await auth.logout(ctx, request.sessionId);
      clearSessionCookie(reply, ctx.config);
      return { message: 'You have been signed out.' };
    },
  );

  app.post(
    '/api/auth/logout-all',
    {
      config: {
        doc: apiDoc('Sign-in', {
          summary: 'Sign out on every device',
          example: { message: 'You have been signed out on every device (2 sessions ended).' },
          headers: { 200: CLEARS_SESSION },
        }),
      },
      schema: { response: { 200: messageSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const ended = await auth.logoutEverywhere(ctx, user.id);
      clearSessionCookie(reply, ctx.config);
      return {
        message: `You have been signed out on every device (${ended} session${ended === 1 ? '' : 's'} ended).`,
      };
    },
  );

  // A GET never signs out (any site can send one): it asks, and its button POSTs to the same path.
  app.get(
    '/api/logout',
    { config: { doc: hiddenRoute('the sign-out page (HTML) of the website') } },
    async (request, reply) => {
      if (!request.user) return reply.redirect('/', 302);
      return reply.type('text/html; charset=utf-8').send(renderLogoutPage(request.user.email));
    },
  );

  await app.register(async (forms) => {
    // The sign-out forms post no fields; this route alone accepts a form body, and ignores it.
    const ignoreFields = (_request: unknown, _body: string, done: (error: null, body: undefined) => void) =>
      done(null, undefined);
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      ignoreFields,
    );
    forms.post('/api/logout', { config: { doc: hiddenRoute('the sign-out page’s form') } }, async (request, reply) => {
      if (request.sessionId) await auth.logout(ctx, request.sessionId);
      clearSessionCookie(reply, ctx.config);
      return reply.redirect('/', 303);
    });
  });

  app.get(
    '/api/auth/user',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Who is signed in',
          operationId: 'getCurrentUser',
        }),
      },
      schema: { response: { 200: authUserSchema } },
    },
    async (request) => {
      return presentAuthUser(requireUser(request));
    },
  );

  await app.register(externalSignInRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(accountChangesRoutes, { ctx });
  await app.register(registrationChallengeRoutes, { ctx });
  await app.register(emailVerificationRoutes, { ctx });
};
