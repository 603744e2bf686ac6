import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { VERIFICATION_RESENT_MESSAGE, verifyEmailSchema } from '../../../shared/accounts';
import { authUserSchema, messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc, hiddenRoute } from '../../http/openapi-words';
import { AppError } from '../../lib/app-error';
import { presentAuthUser } from '../users/users.service';
import { confirmEmailVerification, sendVerificationMail, settleVerificationMail } from './email-verification.service';
import { renderVerifyEmailPage } from './verify-email-page';

/**
 * Email verification: the mailed link opens a page (a GET never changes anything) whose button posts
 * the token; the app's Resend button asks for a new link. Resends are limited per address here (5 in
 * 15 minutes) and per account in the service (3 mails an hour), and every resend gets the same answer.
 */
export const emailVerificationRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onClose', async () => settleVerificationMail(ctx));

  app.get(
    '/api/auth/verify-email',
    {
      config: { doc: hiddenRoute('the page (HTML) a verification email links to') },
      schema: { querystring: verifyEmailSchema },
    },
    async (request, reply) =>
      reply.type('text/html; charset=utf-8').send(renderVerifyEmailPage({ token: request.query.token })),
  );

  app.post(
    '/api/auth/verify-email',
    {
      config: {
        rateLimit: { max: 20, timeWindow: '15 minutes' },
        doc: apiDoc('Sign-in', {
          summary: 'Confirm an email address with its link’s token',
          public: true,
          errors: [
            {
              status: 400,
              code: 'verification_link_invalid',
              message: 'This verification link has expired or has already been used. Sign in and ask for a new one.',
            },
          ],
        }),
      },
      schema: { body: verifyEmailSchema, response: { 200: authUserSchema } },
    },
    async (request) => presentAuthUser(await confirmEmailVerification(ctx, request.body.token)),
  );

  await app.register(async (forms) => {
    // The page's button posts the token as a form field; this route alone accepts a form body.
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    forms.withTypeProvider<ZodTypeProvider>().post(
      '/api/auth/verify-email/form',
      {
        config: { rateLimit: { max: 20, timeWindow: '15 minutes' }, doc: hiddenRoute('that page’s form') },
        schema: { body: verifyEmailSchema },
      },
      async (request, reply) => {
        try {
          await confirmEmailVerification(ctx, request.body.token);
          // The account page lists the ways to sign in that remain.
          return await reply.redirect('/account', 303);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return reply
            .status(error.status)
            .type('text/html; charset=utf-8')
            .send(renderVerifyEmailPage({ token: '', error: error.message }));
        }
      },
    );
  });

  app.post(
    '/api/auth/verify-email/resend',
    {
      config: {
        rateLimit: { max: 5, timeWindow: '15 minutes' },
        doc: apiDoc('Sign-in', { summary: 'Send the verification email again' }),
      },
      schema: { response: { 202: messageSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      sendVerificationMail(ctx, user.id, request.log);
      return reply.status(202).send({ message: VERIFICATION_RESENT_MESSAGE });
    },
  );
};
