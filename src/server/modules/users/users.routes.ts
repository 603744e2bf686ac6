import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userStatusSchema } from '../../../shared/auth';
import { requireUser } from '../../http/guards';
import { presentUserStatus } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/user/status', { schema: { response: { 200: userStatusSchema } } }, async (request) => {
    return presentUserStatus(requireUser(request));
  });
};
