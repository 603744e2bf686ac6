import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userStatusSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { presentUserStatus } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app) => {
  app.get('/api/user/status', { schema: { response: { 200: userStatusSchema } } }, async (request) => {
    return presentUserStatus(requireUser(request));
  });
};
