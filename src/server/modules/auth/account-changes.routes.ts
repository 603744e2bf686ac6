import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_DELETED_MESSAGE,
  accountDeleteSchema,
  accountNameSchema,
  emailChangeSchema,
  emailChangeStatusSchema,
  PASSWORD_CHANGED_MESSAGE,
  passwordChangeSchema,
} from '../../../shared/accounts';
import { authUserSchema, messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
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
      config: { rateLimit: { max: 30, timeWindow: '15 minutes', keyGenerator: rateLimitKey } },
      schema: { body: accountNameSchema, response: { 200: authUserSchema } },
    },
    async (request) => presentAuthUser(await account.renameAccount(ctx, requireUser(request), request.body)),
  );

  app.get('/api/account/email', { schema: { response: { 200: emailChangeStatusSchema } } }, async (request) =>
    account.emailChangeStatus(ctx, requireUser(request)),
  );

  app.post(
    '/api/account/email',
    { config: GUARDED, schema: { body: emailChangeSchema, response: { 202: emailChangeStatusSchema } } },
    async (request, reply) => {
      const status = await account.changeEmail(ctx, requireUser(request), request.body, request.log);
      return reply.status(202).send(status);
    },
  );

  app.delete('/api/account/email', { schema: { response: { 200: emailChangeStatusSchema } } }, async (request) => {
    await cancelEmailChange(ctx, requireUser(request).id);
    return { pendingEmail: null, pendingUntil: null };
  });

  app.post(
    '/api/account/password',
    { config: GUARDED, schema: { body: passwordChangeSchema, response: { 200: messageSchema } } },
    async (request) => {
      const user = requireUser(request);
      if (!request.sessionId) throw unauthorized();
      await account.changePassword(ctx, user, request.sessionId, request.body);
      return { message: PASSWORD_CHANGED_MESSAGE };
    },
  );

  app.delete(
    '/api/account',
    { config: GUARDED, schema: { body: accountDeleteSchema, response: { 200: messageSchema } } },
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
