import type { FastifyInstance } from 'fastify';

/** Requests slower than this are logged at info level, with their time. */
const SLOW_REQUEST_MS = 1000;

/**
 * One log line per request only when it matters: Fastify's two info lines per request (in and out)
 * were a large share of a polled endpoint's cost. Slow answers and server errors are logged at info,
 * everything else at debug (LOG_LEVEL=debug brings the full access log back).
 */
export function registerRequestLog(app: FastifyInstance): void {
  // Levels only change at start (LOG_LEVEL): read once, not per request.
  const debug = ['trace', 'debug'].includes(app.log.level);
  app.addHook('onResponse', async (request, reply) => {
    const elapsed = reply.elapsedTime;
    const slow = elapsed >= SLOW_REQUEST_MS || reply.statusCode >= 500;
    if (!slow && !debug) return;
    const line = {
      method: request.method,
      url: request.routeOptions.url ?? 'unknown',
      statusCode: reply.statusCode,
      ms: Math.round(elapsed),
    };
    if (slow) request.log.info(line, 'request completed');
    else request.log.debug(line, 'request completed');
  });
}
