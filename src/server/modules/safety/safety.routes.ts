import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  newAppealSchema,
  newReportSchema,
  ownTakedownSchema,
  reportReceiptSchema,
  safetyActionResultSchema,
  watchedVideoSchema,
} from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { appealTakedown, ownTakedowns, submitReport, watchVideo } from './reports.service';

/**
 * Reporting (issue 44): anyone may report a video and open a shared watch page (no sign-in); a
 * signed-in owner sees their taken-down videos and appeals each once.
 */
export const safetyRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/reports',
    {
      config: { tokenScope: 'reports:write', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { body: newReportSchema, response: { 201: reportReceiptSchema } },
    },
    async (request, reply) => {
      const receipt = await submitReport(ctx, request.body, { user: request.user, ip: request.ip });
      return reply.code(201).send(receipt);
    },
  );

  app.get(
    '/api/watch/:token',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { params: z.object({ token: z.string().max(200) }), response: { 200: watchedVideoSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return watchVideo(ctx, request.params.token);
    },
  );

  app.get('/api/safety/takedowns', { schema: { response: { 200: z.array(ownTakedownSchema) } } }, async (request) =>
    ownTakedowns(ctx, requireUser(request).id),
  );

  app.post(
    '/api/safety/takedowns/:reportId/appeal',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        params: z.object({ reportId: z.uuid('must be a takedown id') }),
        body: newAppealSchema,
        response: { 201: safetyActionResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await appealTakedown(ctx, requireUser(request), request.params.reportId, request.body.message);
      return reply.code(201).send(answer);
    },
  );
};
