import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminCostsQuerySchema, adminCostsSchema } from '../../../shared/admin-costs';
import type { ServiceContext } from '../../context';
import { requireAdmin } from '../../http/guards';
import { costsReport } from './costs.service';

/** The cost view's API (issue 31): administrators only, every decision taken from the session. */
export const adminCostsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/costs',
    { schema: { querystring: adminCostsQuerySchema, response: { 200: adminCostsSchema } } },
    async (request) => costsReport(ctx, request.query),
  );
};
