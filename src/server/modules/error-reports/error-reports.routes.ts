import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_REPORT_MAX_BYTES, errorReportSchema } from '../../../shared/errors';
import type { Db } from '../../db/client';
import { insertErrorReport } from './error-reports.repository';

/** Reports from the browser's error screen: kept in a table, size-capped and rate-limited per client. */
export const errorReportsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/errors/report',
    {
      bodyLimit: ERROR_REPORT_MAX_BYTES,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { body: errorReportSchema, response: { 202: z.object({ received: z.literal(true) }) } },
    },
    async (request, reply) => {
      const report = request.body;
      await insertErrorReport(db, {
        errorId: report.errorId,
        userId: request.user?.id ?? null,
        message: report.message,
        stack: report.stack ?? null,
        componentStack: report.componentStack ?? null,
        url: report.url,
        userAgent: report.userAgent,
        clientTimestamp: new Date(report.timestamp),
        ip: request.ip,
      });
      request.log.warn({ errorId: report.errorId, url: report.url }, `client error: ${report.message.slice(0, 200)}`);
      return reply.status(202).send({ received: true });
    },
  );
};
