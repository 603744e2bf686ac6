import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import {
  createdGenerationSchema,
  createGenerationSchema,
  extendGenerationSchema,
  generationRecordSchema,
  modelListSchema,
} from '../../../shared/generations';
import { DAILY_SPEND_CAP_CODE, dailySpendCapMessage } from '../../../shared/money/spend-cap';
import { uploadCompleteSchema } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { rateLimitKey, requireUser } from '../../http/guards';
import { idParams, uuidOr404 } from '../../http/path-ids';
import {
  apiDoc,
  CONTENT_POLICY,
  EMAIL_UNVERIFIED,
  TOO_MANY_UNFINISHED,
  IDEMPOTENCY_ERRORS,
  NOT_FOUND_VIDEO,
  UPLOAD_PATH,
  UPLOADED,
  VIDEO_ID,
  VIDEO_RECORD,
} from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { normaliseGenerationRequest } from './generation-request';
import { presentCreated, presentRecords } from './generations.presenter';
import { idempotentRoute } from '../idempotency/idempotency.service';
import { requireMaySpend } from '../users/users.service';
import * as generations from './generations.service';
import { extendGeneration } from './extend.service';
import { lastFrameUpload } from './last-frame.service';
import { withoutOperatorNames } from '../../lib/operator-wording';

/** The id of one of the user's videos: what is not a uuid cannot be anyone's video. */
const videoId = (id: string) => uuidOr404(id, NOT_FOUND_VIDEO);

/** Continue and Extend make a new video (or its input) from one: a token needs videos:write, and 20 a minute at most. */
const makesVideoFrom = {
  tokenScope: 'videos:write' as const,
  rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
};

export const generationsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/models',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Videos', {
          summary: 'List the video models',
          operationId: 'listModels',
          description:
            'The models this server offers, their prices, durations and resolutions, and whether each is available now.',
        }),
      },
      schema: { response: { 200: modelListSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const models = ctx.engines.list();
      if (user.isAdmin) return { models };
      return {
        models: models.map((model) => ({ ...model, reason: model.reason && withoutOperatorNames(model.reason) })),
      };
    },
  );

  app.post(
    '/api/video-generation',
    {
      // Per user: the unfinished-jobs limit is the real cap; this only stops a runaway client.
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Videos', {
          summary: 'Make a video',
          operationId: 'createVideo',
          description:
            'Queues a video (or up to four variations) and charges its credits. Reference an upload by its `objectPath`. ' +
            'Send an `Idempotency-Key` to make retries safe: the same key and body within 24 hours answer the first result and are charged once.',
          idempotent: true,
          requestExample: {
            prompt: 'Slowly zoom in on the astronaut',
            imageFile: UPLOAD_PATH,
            duration: 4,
            isEconomy: true,
            hasAudio: false,
          },
          example: { ...VIDEO_RECORD, group: [VIDEO_RECORD] },
          errors: [
            {
              status: 400,
              code: 'invalid_upload',
              message: 'That file is not one of your uploads, or its upload did not finish.',
            },
            { status: 402, code: 'insufficient_credits', message: 'Need 4 credits. You have 1.' },
            CONTENT_POLICY,
            EMAIL_UNVERIFIED,
            ...IDEMPOTENCY_ERRORS,
            {
              status: 429,
              code: DAILY_SPEND_CAP_CODE,
              message: dailySpendCapMessage({
                priceHundredths: 100,
                capHundredths: 200,
                spentHundredths: 200,
                resetsAt: new Date('2026-11-26T00:00:00Z'),
              }),
            },
            TOO_MANY_UNFINISHED,
          ],
        }),
      },
      schema: { body: createGenerationSchema, response: { 201: createdGenerationSchema } },
      // Idempotency-Key: a retried request answers the first one's result and is charged once.
      ...idempotentRoute(ctx),
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const created = await generations.createGeneration(ctx, user.id, normaliseGenerationRequest(request.body), {
        variations: request.body.variations,
        compareModel: request.body.compareModel ?? undefined,
        log: request.log,
      });
      request.log.info({ generationId: created.row.id, model: created.row.model }, 'generation queued');
      // With its queue place and estimates, like the live event about it: the browser puts this
      // answer into its lists, and it must not hide a place the event already brought.
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );

  const listTag = (kind: string, user: { id: string; liveVersion: number }) => liveStateTag(kind, user, ctx.now());

  app.get(
    '/api/video-generation',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Videos', {
          summary: 'List your videos',
          operationId: 'listVideos',
          etag: true,
          description:
            'Newest first, with each video’s status, progress and, once finished, its signed `outputVideoUrl`.',
          example: [
            {
              ...VIDEO_RECORD,
              status: 'completed',
              progress: 100,
              outputVideoUrl: `/api/media/${VIDEO_ID}?exp=1764072000&sig=…`,
              watchPath: `/watch/${VIDEO_ID}.1764072000.q2H3`,
            },
          ],
        }),
      },
      schema: { response: { 200: z.array(generationRecordSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('v', user))) return reply;
      return presentRecords(ctx, await generations.listGenerations(ctx, user.id));
    },
  );

  app.delete(
    '/api/video-generation/:id',
    {
      config: {
        tokenScope: 'videos:write',
        doc: apiDoc('Videos', {
          summary: 'Delete a video',
          operationId: 'deleteVideo',
          example: { message: 'Video deleted' },
          errors: [NOT_FOUND_VIDEO],
        }),
      },
      schema: { params: idParams, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await generations.deleteGeneration(ctx, user.id, videoId(request.params.id));
      return { message: 'Video deleted' };
    },
  );

  // Continue: the video's last frame as a new image upload of the user's, for the next generation.
  app.post(
    '/api/video-generation/:id/last-frame',
    {
      config: {
        ...makesVideoFrom,
        doc: apiDoc('Videos', {
          summary: 'Take a video’s last frame as a new image upload',
          operationId: 'takeLastFrame',
          description: 'The answer’s `objectPath` starts the next generation where this video ends (Continue).',
          example: UPLOADED,
          errors: [
            NOT_FOUND_VIDEO,
            {
              status: 400,
              code: 'no_output',
              message: 'This video has no finished file to continue from (it may have expired after 24 hours).',
            },
            { status: 400, code: 'last_frame_failed', message: 'Could not take the last frame of this video.' },
          ],
        }),
      },
      schema: { params: idParams, response: { 201: uploadCompleteSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return reply.status(201).send(await lastFrameUpload(ctx, user.id, videoId(request.params.id)));
    },
  );

  // Extend: the video's continuation from its last frame, joined to it into one new, longer video.
  app.post(
    '/api/video-generation/:id/extend',
    {
      config: {
        ...makesVideoFrom,
        doc: apiDoc('Videos', {
          summary: 'Extend a video',
          operationId: 'extendVideo',
          description:
            'Renders the video’s continuation from its last frame and joins the two into one new, longer video.',
          requestExample: { prompt: 'The astronaut waves', duration: 4, crossfade: 0.5 },
          errors: [
            NOT_FOUND_VIDEO,
            { status: 402, code: 'insufficient_credits', message: 'Need 4 credits. You have 1.' },
            CONTENT_POLICY,
            {
              status: 409,
              code: 'not_finished',
              message: 'This video is not finished yet. Extend it once it is ready.',
            },
          ],
        }),
      },
      schema: { params: idParams, body: extendGenerationSchema, response: { 201: createdGenerationSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const created = await extendGeneration(ctx, user.id, videoId(request.params.id), request.body);
      request.log.info({ generationId: created.row.id, parentId: request.params.id }, 'extension queued');
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );
};
