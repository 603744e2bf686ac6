import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_DELETED_MESSAGE,
  accountDeleteSchema,
  accountNameSchema,
  DELETE_CONFIRMATION_MESSAGE,
  EMAIL_CHANGE_UNAVAILABLE_MESSAGE,
  emailChangeSchema,
  emailChangeStatusSchema,
  NO_PASSWORD_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  passwordChangeSchema,
  WRONG_PASSWORD_MESSAGE,
} from '../../../shared/accounts';
import { authUserSchema, messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import { apiDoc, CLEARS_SESSION } from '../../http/openapi-words';
import { unauthorized } from '../../lib/app-error';
import { presentAuthUser } from '../users/users.service';
import * as account from './account.service';
import { cancelEmailChange } from './email-verification.service';
import { clearSessionCookie } from './session-cookie';
import { SELF_ACTOR } from '../admin/admin.service';
import { deleteAccount } from '../../workflows/delete-account';

/** Each signed-in user may try their current password this often (a stolen session cannot guess on). */
const GUARDED = { rateLimit: { max: 10, timeWindow: '15 minutes', keyGenerator: rateLimitKey } };

/**
 * Self-service on /account: the name, the email (re-verified by a mailed link), the password, and
 * deleting the account with all its data. Cookie sessions only (no token scope).
 */
export const accountChangesRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.patch(
    '/api/account',
    {
      config: {
        rateLimit: { max: 30, timeWindow: '15 minutes', keyGenerator: rateLimitKey },
        doc: apiDoc('Account', {
          summary: 'Change your name',
          requestExample: { firstName: 'Ada', lastName: 'Lovelace' },
        }),
      },
      schema: { body: accountNameSchema, response: { 200: authUserSchema } },
    },
    async (request) => presentAuthUser(await account.renameAccount(ctx, requireUser(request), request.body)),
  );

  app.get(
    '/api/account/email',
    {
      config: { doc: apiDoc('Account', { summary: 'The email change waiting for its link to be followed, if any' }) },
      schema: { response: { 200: emailChangeStatusSchema } },
    },
    async (request) => account.emailChangeStatus(ctx, requireUser(request)),
  );

  app.post(
    '/api/account/email',
    {
      config: {
        ...GUARDED,
        doc: apiDoc('Account', {
          summary: 'Change your email',
          description:
            'The new address is kept as pending and mailed a link (it works once, for 24 hours); the account keeps its email until the link is followed. Accounts with a password send `currentPassword`.',
          requestExample: { email: 'ada@example.org', currentPassword: 'correct horse battery staple' },
          errors: [
            { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
            { status: 404, code: 'email_change_unavailable', message: EMAIL_CHANGE_UNAVAILABLE_MESSAGE },
            { status: 409, code: 'email_taken', message: 'An account with this email already exists' },
          ],
        }),
      },
      schema: { body: emailChangeSchema, response: { 202: emailChangeStatusSchema } },
    },
    async (request, reply) => {
      const status = await account.changeEmail(ctx, requireUser(request), request.body, request.log);
      return reply.status(202).send(status);
    },
  );

  app.delete(
    '/api/account/email',
    {
      config: { doc: apiDoc('Account', { summary: 'Cancel the pending email change' }) },
      schema: { response: { 200: emailChangeStatusSchema } },
    },
    async (request) => {
      await cancelEmailChange(ctx, requireUser(request).id);
      return { pendingEmail: null, pendingUntil: null };
    },
  );

  app.post(
    '/api/account/password',
    {
      config: {
        ...GUARDED,
        doc: apiDoc('Account', {
          summary: 'Change your password',
          description: 'Every other session of the account ends; this one is kept.',
          requestExample: { currentPassword: 'correct horse battery staple', newPassword: 'a new long passphrase' },
          example: { message: PASSWORD_CHANGED_MESSAGE },
          errors: [
            { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
            { status: 409, code: 'no_password', message: NO_PASSWORD_MESSAGE },
          ],
        }),
      },
      schema: { body: passwordChangeSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      if (!request.sessionId) throw unauthorized();
      await account.changePassword(ctx, user, request.sessionId, request.body);
      return { message: PASSWORD_CHANGED_MESSAGE };
    },
  );

  app.delete(
    '/api/account',
    {
      config: {
        ...GUARDED,
        doc: apiDoc('Account', {
          summary: 'Delete your account and all its data',
          description:
            'Confirmed with `password`, or with `email` typed out for an account that has no password. Deletes every row and file of the account, as an administrator deletion does, and ends the session.',
          requestExample: { password: 'correct horse battery staple' },
          example: { message: ACCOUNT_DELETED_MESSAGE },
          errors: [
            { status: 403, code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE },
            { status: 400, code: 'confirmation_mismatch', message: DELETE_CONFIRMATION_MESSAGE },
            {
              status: 409,
              code: 'last_admin',
              message: 'This is the last administrator: make another user an administrator first.',
            },
          ],
          headers: { 200: CLEARS_SESSION },
        }),
      },
      schema: { body: accountDeleteSchema, response: { 200: messageSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await account.confirmAccountDeletion(user, request.body);
      await deleteAccount(ctx, SELF_ACTOR, user.id);
      // The account's sessions went with it; this browser forgets its cookie too.
      clearSessionCookie(reply, ctx.config);
      return { message: ACCOUNT_DELETED_MESSAGE };
    },
  );
};
