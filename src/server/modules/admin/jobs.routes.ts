import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminJobActionSchema, adminJobsOverviewSchema, adminJobsQuerySchema } from '../../../shared/admin-jobs';
import type { ServiceContext } from '../../context';
import { requireAdmin } from '../../http/guards';
import { apiDoc, type ErrorAnswer, NOT_ADMIN } from '../../http/openapi-words';
import { adminActor } from './admin.service';
import * as jobs from './jobs.service';

const jobParamsSchema = z.object({ id: z.uuid('must be a job id') });

const JOB_NOT_FOUND: ErrorAnswer = {
  status: 404,
  code: 'job_not_found',
  message: 'This job was not found. Its owner may have deleted it.',
};
/** Approve or Reject on a job that is not (or no longer) held for review. */
const JOB_NOT_FAILED: ErrorAnswer = {
  status: 409,
  code: 'job_not_failed',
  message: 'Only a failed job can be re-run.',
};
const JOB_NOT_HELD: ErrorAnswer = {
  status: 409,
  code: 'job_not_held',
  message: 'This job is not held for review (it was decided already, or never held).',
};

/** The jobs console's API (issue 31): administrators only, every decision taken from the session. */
export const adminJobsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/jobs',
    {
      config: { doc: apiDoc('Admin', { summary: 'The job queue', errors: [NOT_ADMIN] }) },
      schema: { querystring: adminJobsQuerySchema, response: { 200: adminJobsOverviewSchema } },
    },
    async (request) => jobs.jobsOverview(ctx, request.query),
  );

  const action = { schema: { params: jobParamsSchema, response: { 200: adminJobActionSchema } } };
  app.post(
    '/api/admin/jobs/:id/cancel',
    {
      ...action,
      config: {
        doc: apiDoc('Admin', {
          summary: 'Cancel a job',
          errors: [
            NOT_ADMIN,
            JOB_NOT_FOUND,
            { status: 409, code: 'job_finished', message: 'This job already completed: there is nothing to cancel.' },
            {
              status: 409,
              code: 'job_held',
              message: 'This video is finished and held for review: approve or reject it instead.',
            },
          ],
        }),
      },
    },
    async (request) => jobs.cancelJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  app.post(
    '/api/admin/jobs/:id/rerun',
    {
      ...action,
      config: {
        doc: apiDoc('Admin', {
          summary: 'Run a failed job again, free (once per failed job)',
          errors: [
            NOT_ADMIN,
            JOB_NOT_FOUND,
            JOB_NOT_FAILED,
            { status: 409, code: 'already_rerun', message: 'This job was re-run already: the re-run is job 8b0c….' },
            {
              status: 409,
              code: 'model_unavailable',
              message: 'This server can no longer run veo3: the job cannot be re-run.',
            },
            {
              status: 409,
              code: 'inputs_expired',
              message: "This job's image input was deleted after 24 hours: it cannot be re-run.",
            },
          ],
        }),
      },
    },
    async (request) => jobs.rerunJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  app.post(
    '/api/admin/jobs/:id/refund',
    {
      ...action,
      config: {
        doc: apiDoc('Admin', {
          summary: 'Refund a job',
          errors: [
            NOT_ADMIN,
            JOB_NOT_FOUND,
            { ...JOB_NOT_FAILED, message: 'Only a failed job can be refunded.' },
            { status: 409, code: 'already_refunded', message: 'This job was refunded already.' },
            { status: 409, code: 'nothing_to_refund', message: 'This job cost nothing: there is nothing to refund.' },
          ],
        }),
      },
    },
    async (request) => jobs.refundJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
  // Jobs held for review (issue 43): their description was flagged, not refused.
  app.post(
    '/api/admin/jobs/:id/approve',
    {
      ...action,
      config: {
        doc: apiDoc('Admin', {
          summary: 'Approve a job held for review',
          description:
            'Screening flagged its description or an input (approved, it goes into the queue) or its finished video (approved, it is shown to its owner, kept from now, and `video.completed` is sent).',
          errors: [NOT_ADMIN, JOB_NOT_FOUND, JOB_NOT_HELD],
        }),
      },
    },
    async (request) => jobs.approveJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id, request.log),
  );
  app.post(
    '/api/admin/jobs/:id/reject',
    {
      ...action,
      config: {
        doc: apiDoc('Admin', {
          summary: 'Reject a job held for review',
          description:
            'It fails as "Blocked by the content policy." and is never shown (a held finished video is deleted); its charge comes back as REFUND_BLOCKED_GENERATIONS says.',
          errors: [NOT_ADMIN, JOB_NOT_FOUND, JOB_NOT_HELD],
        }),
      },
    },
    async (request) => jobs.rejectJobAsAdmin(ctx, adminActor(requireAdmin(request)), request.params.id),
  );
};
