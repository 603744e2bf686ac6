import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminStatsSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  adminUserUpdateSchema,
  NEXT_CURSOR_HEADER,
} from '../../../shared/admin';
import { messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireAdmin } from '../../http/guards';
import { apiDoc, type ErrorAnswer, NOT_ADMIN, USER_NOT_FOUND } from '../../http/openapi-words';
import * as admin from './admin.service';
import { EMAIL_TAKEN_MESSAGE } from '../users/users.service';
import { deleteAccount } from '../../workflows/delete-account';

const userParamsSchema = z.object({ id: z.uuid('must be a user id') });

const LAST_ADMIN: ErrorAnswer = { status: 409, code: 'last_admin', message: admin.LAST_ADMIN_MESSAGE };

/** User management for administrators; every decision is taken from the session on the server. */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/users',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'List users',
          errors: [NOT_ADMIN],
          headers: {
            200: {
              [NEXT_CURSOR_HEADER]: {
                description: 'The `cursor` of the next page; absent on the last page.',
                schema: { type: 'string' },
              },
            },
          },
        }),
      },
      schema: { querystring: adminUserListQuerySchema, response: { 200: adminUserListSchema } },
    },
    async (request, reply) => {
      const page = await admin.listUsers(ctx, request.query);
      reply.header('access-control-expose-headers', NEXT_CURSOR_HEADER);
      if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.users;
    },
  );

  app.get(
    '/api/admin/stats',
    {
      config: { doc: apiDoc('Admin', { summary: 'User statistics', errors: [NOT_ADMIN] }) },
      schema: { response: { 200: adminStatsSchema } },
    },
    async () => admin.userStats(ctx),
  );

  app.patch(
    '/api/admin/users/:id',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'Change a user (credits, plan, role)',
          errors: [
            NOT_ADMIN,
            USER_NOT_FOUND,
            {
              status: 409,
              code: 'stale_edit',
              message:
                "This user's credits changed while you were editing (now 12). Check the new figure and save again.",
            },
            { status: 409, code: 'email_taken', message: EMAIL_TAKEN_MESSAGE },
            LAST_ADMIN,
          ],
        }),
      },
      schema: { params: userParamsSchema, body: adminUserUpdateSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = await admin.updateUser(
        ctx,
        admin.adminActor(requireAdmin(request)),
        request.params.id,
        request.body,
      );
      return { message: `${user.email} was updated.` };
    },
  );

  app.delete(
    '/api/admin/users/:id',
    {
      config: { doc: apiDoc('Admin', { summary: 'Delete a user', errors: [NOT_ADMIN, USER_NOT_FOUND, LAST_ADMIN] }) },
      schema: { params: userParamsSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = await deleteAccount(ctx, admin.adminActor(requireAdmin(request)), request.params.id);
      return { message: `${user.email} and all their data were deleted.` };
    },
  );
};
