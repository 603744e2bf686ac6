import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';

/** More queries than this waiting for the database: new API requests are turned away for a moment (DB_MAX_QUEUED_QUERIES). */
export const MAX_QUEUED_QUERIES = 64;

/** Paths answered without the database, kept open under load (health checks, signed media, the app's files). */
const NEVER_SHED = ['/healthz', '/readyz', '/api/media/'];

/**
 * Load shedding: when the database's queue is full, an API request is refused before it does
 * anything (503 with Retry-After, nothing written) instead of waiting behind hundreds of others.
 * Health checks and the client's files are never refused.
 */
export function registerOverloadGuard(app: FastifyInstance, queued: () => number, limit = MAX_QUEUED_QUERIES): void {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || NEVER_SHED.some((path) => request.url.startsWith(path))) return;
    if (queued() < limit) return;
    throw new AppError(503, 'server_busy', 'The server is busy right now. Please try again in a moment.', {
      'retry-after': '1',
    });
  });
}
