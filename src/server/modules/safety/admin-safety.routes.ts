import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safetyActionResultSchema, safetyDecisionSchema, safetyOverviewSchema } from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { requireAdmin } from '../../http/guards';
import { takeDownReported } from '../../workflows/take-down';
import { actOnOwner, dismissReport, grantAppeal, type SafetyActor, safetyOverview } from './safety-queue.service';

const reportParams = z.object({ id: z.uuid('must be a report id') });
const userParams = z.object({ id: z.uuid('must be a user id') });

const actorOf = (user: UserRow, log: SafetyActor['log']): SafetyActor => ({
  label: `admin:${user.email}`,
  userId: user.id,
  log,
});

/** The safety queue's API (issue 44): administrators only, every decision taken from the session and audited. */
export const adminSafetyRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get('/api/admin/safety', { schema: { response: { 200: safetyOverviewSchema } } }, async () =>
    safetyOverview(ctx),
  );

  const decision = {
    schema: { params: reportParams, body: safetyDecisionSchema, response: { 200: safetyActionResultSchema } },
  };
  app.post('/api/admin/safety/reports/:id/take-down', decision, async (request) =>
    takeDownReported(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );
  app.post('/api/admin/safety/reports/:id/dismiss', decision, async (request) =>
    dismissReport(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );
  app.post('/api/admin/safety/reports/:id/grant', decision, async (request) =>
    grantAppeal(ctx, actorOf(requireAdmin(request), request.log), request.params.id, request.body.note),
  );

  const owner = { schema: { params: userParams, response: { 200: safetyActionResultSchema } } };
  for (const action of ['warn', 'suspend', 'unsuspend'] as const)
    app.post(`/api/admin/safety/users/:id/${action}`, owner, async (request) =>
      actOnOwner(ctx, actorOf(requireAdmin(request), request.log), request.params.id, action),
    );
};
