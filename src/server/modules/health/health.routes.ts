import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../context';

const healthSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  /** The process is up. */
  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => ({ status: 'ok' as const }));

  /** The process can reach its database. */
  app.get('/readyz', { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (_request, reply) => {
    const ok = await ctx.database.ping();
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
  });
};
