import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  newAppealSchema,
  newReportSchema,
  ownTakedownSchema,
  REPORT_CONTACT_REQUIRED_MESSAGE,
  REPORT_RECEIVED_MESSAGE,
  REPORT_STATEMENT_REQUIRED_CODE,
  REPORT_STATEMENT_REQUIRED_MESSAGE,
  REPORTED_VIDEO_NOT_FOUND_MESSAGE,
  reportReceiptSchema,
  safetyActionResultSchema,
  watchedVideoSchema,
} from '../../../shared/safety';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { appealTakedown, ownTakedowns, submitReport, watchVideo } from './reports.service';

/**
 * Reporting (issue 44): anyone may report a video and open a shared watch page (no sign-in); a
 * signed-in owner sees their taken-down videos and appeals each once.
 */
export const safetyRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/reports',
    {
      config: {
        tokenScope: 'reports:write',
        rateLimit: { max: 30, timeWindow: '1 minute' },
        doc: apiDoc('Safety', {
          summary: 'Report a video',
          operationId: 'reportVideo',
          description:
            'Anyone may report a video (no sign-in; a signed-in user or a token with `reports:write` is named as the reporter). `video` is a shared watch link, a video or poster file link, or a video id. The administrators decide within 48 hours (`dueAt`). A report about a person shown (`intimate_image`, `likeness`) needs `statement: true`, the takedown statement. SAFETY_REPORTS_PER_HOUR per address and per account.',
          public: true,
          requestExample: {
            video: 'https://reelsmith.example/watch/6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70.1764410400.q2H3',
            reason: 'likeness',
            description: 'This is my face; I never agreed to it.',
            contact: 'person@example.com',
            statement: true,
          },
          example: {
            id: '2d7f0c1e-8a4b-4f3e-9c6d-5b1a0e9f8c7d',
            dueAt: '2026-11-30T10:00:00.000Z',
            message: REPORT_RECEIVED_MESSAGE,
          },
          errors: [
            { status: 400, code: 'contact_required', message: REPORT_CONTACT_REQUIRED_MESSAGE },
            { status: 404, code: 'video_not_found', message: REPORTED_VIDEO_NOT_FOUND_MESSAGE },
            { status: 422, code: REPORT_STATEMENT_REQUIRED_CODE, message: REPORT_STATEMENT_REQUIRED_MESSAGE },
            {
              status: 429,
              code: 'too_many_reports',
              message:
                'You have sent 5 reports in the last hour, the most this server takes. Please try again in 20 minutes.',
            },
          ],
        }),
      },
      schema: { body: newReportSchema, response: { 201: reportReceiptSchema } },
    },
    async (request, reply) => {
      const receipt = await submitReport(ctx, request.body, { user: request.user, ip: request.ip, log: request.log });
      return reply.code(201).send(receipt);
    },
  );

  app.get(
    '/api/watch/:token',
    {
      config: {
        rateLimit: { max: 120, timeWindow: '1 minute' },
        doc: apiDoc('Safety', {
          summary: "A shared video's watch page",
          description: 'What the watch page of a shared link shows, while the video lives. No sign-in needed.',
          public: true,
          example: {
            id: '6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70',
            videoUrl: '/api/media/b3V0cHV0cy8?type=video%2Fmp4&exp=1764410400&sig=abc',
            posterUrl: '/api/media/b3V0cHV0cy9w?type=image%2Fjpeg&exp=1764410400&sig=def',
            duration: 5,
            createdAt: '2026-11-28T10:00:00.000Z',
            expiresAt: '2026-11-29T10:00:00.000Z',
            signedBy: 'Reelsmith reelsmith.example',
          },
          errors: [
            {
              status: 404,
              code: 'watch_not_found',
              message: 'This video is no longer here: it expired, or was removed.',
            },
          ],
        }),
      },
      schema: { params: z.object({ token: z.string().max(200) }), response: { 200: watchedVideoSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return watchVideo(ctx, request.params.token);
    },
  );

  app.get(
    '/api/safety/takedowns',
    {
      config: {
        doc: apiDoc('Safety', {
          summary: 'Your videos that were taken down',
          description: "Each with its reason, the administrator's note and its appeal (one per takedown).",
          example: [
            {
              reportId: '2d7f0c1e-8a4b-4f3e-9c6d-5b1a0e9f8c7d',
              reason: 'violence',
              prompt: 'A sword fight in the rain',
              takenDownAt: '2026-11-28T12:00:00.000Z',
              note: 'Graphic violence.',
              appeal: null,
            },
          ],
          errors: [{ status: 401, code: 'unauthorized', message: 'Please sign in to continue' }],
        }),
      },
      schema: { response: { 200: z.array(ownTakedownSchema) } },
    },
    async (request) => ownTakedowns(ctx, requireUser(request).id),
  );

  app.post(
    '/api/safety/takedowns/:reportId/appeal',
    {
      config: {
        rateLimit: { max: 10, timeWindow: '1 minute' },
        doc: apiDoc('Safety', {
          summary: 'Appeal a takedown, once',
          requestExample: { message: 'It was a film scene with fake blood.' },
          example: {
            message: 'Your appeal was sent. An administrator will look at it within 48 hours and write to you.',
          },
          errors: [
            { status: 404, code: 'takedown_not_found', message: 'There is no takedown of your videos with this id.' },
            {
              status: 409,
              code: 'already_appealed',
              message: 'You have appealed this takedown already: an administrator will decide.',
            },
          ],
        }),
      },
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
