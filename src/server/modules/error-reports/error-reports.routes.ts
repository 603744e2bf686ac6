import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_REPORT_MAX_BYTES, errorReportSchema } from '../../../shared/errors';
import type { ServiceContext } from '../../context';
import { apiDoc } from '../../http/openapi-words';
import { recordErrorReport } from './error-reports.service';

/** Reports from the browser's error screen: kept in a table, size-capped and rate-limited per client. */
export const errorReportsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/errors/report',
    {
      bodyLimit: ERROR_REPORT_MAX_BYTES,
      config: {
        rateLimit: { max: 20, timeWindow: '1 minute' },
        doc: apiDoc('Diagnostics', {
          summary: 'Report an error seen in the browser',
          public: true,
          example: { received: true },
        }),
      },
      schema: { body: errorReportSchema, response: { 202: z.object({ received: z.literal(true) }) } },
    },
    async (request, reply) => {
      const report = request.body;
      await recordErrorReport(ctx, report, { userId: request.user?.id ?? null, ip: request.ip });
      request.log.warn({ errorId: report.errorId, url: report.url }, `client error: ${report.message.slice(0, 200)}`);
      return reply.status(202).send({ received: true });
    },
  );
};
