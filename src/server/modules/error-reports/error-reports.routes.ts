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
          requestExample: {
            message: "TypeError: Cannot read properties of undefined (reading 'status')",
            stack:
              "TypeError: Cannot read properties of undefined (reading 'status')\n    at VideoCard (index-3f2a.js:1:2345)",
            componentStack: null,
            url: 'https://reelsmith.example/dashboard',
            userAgent:
              'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
            timestamp: '2026-11-25T10:00:00.000Z',
            errorId: 'err_1764064800000_k3x9q2',
          },
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
