import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../context';
import { renderMetrics, requireMetricsToken } from './metrics.service';

/** GET /metrics: Prometheus text for the operator's scraper, behind METRICS_TOKEN (issue 31). */
export const metricsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get('/metrics', async (request, reply) => {
    requireMetricsToken(ctx, request.headers.authorization);
    const { contentType, body } = await renderMetrics(ctx);
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
};
