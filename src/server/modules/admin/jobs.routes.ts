import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminJobActionSchema, adminJobsOverviewSchema, adminJobsQuerySchema } from '../../../shared/admin-jobs';
import type { ServiceContext } from '../../context';
import { requireAdmin } from '../../http/guards';
import { adminActor } from './admin.service';
import * as jobs from './jobs.service';

const jobParamsSchema = z.object({ id: z.uuid('must be a job id') });

/** The jobs console's API (issue 31): administrators only, every decision taken from the session. */
export const adminJobsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/jobs',
    { schema: { querystring: adminJobsQuerySchema, response: { 200: adminJobsOverviewSchema } } },
    async (request) => jobs.jobsOverview(ctx, request.query),
  );

  const action = { schema: { params: jobParamsSchema, response: { 200: adminJobActionSchema } } };
  app.post('/api/admin/jobs/:id/cancel', action, async (request) =>
    jobs.cancelJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  app.post('/api/admin/jobs/:id/rerun', action, async (request) =>
    jobs.rerunJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  app.post('/api/admin/jobs/:id/refund', action, async (request) =>
    jobs.refundJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  // Jobs held for review (issue 43): their description was flagged, not refused.
  app.post('/api/admin/jobs/:id/approve', action, async (request) =>
    jobs.approveJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id, request.log),
  );
  app.post('/api/admin/jobs/:id/reject', action, async (request) =>
    jobs.rejectJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
};
