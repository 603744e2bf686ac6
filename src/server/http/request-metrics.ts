import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../lib/metrics';

/**
 * Every answered request into the duration histogram, labelled by its route pattern
 * ('/api/video-generation/:id', never the raw URL, so ids and query strings cannot multiply the
 * series), 'unmatched' for requests no route took, and its status class.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });
}
