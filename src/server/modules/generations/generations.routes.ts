import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import {
  createdGenerationSchema,
  createGenerationSchema,
  extendGenerationSchema,
  generationJobSchema,
  generationRecordSchema,
  modelListSchema,
} from '../../../shared/generations';
import { uploadCompleteSchema } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { rateLimitKey, requireUser } from '../../http/guards';
import { polledRoute } from '../../http/polled-route';
import { notFound } from '../../lib/app-error';
import { normaliseGenerationRequest } from './generation-request';
import { presentCreated, presentJobs, presentRecords } from './generations.presenter';
import { idempotentRoute } from '../idempotency/idempotency.service';
import { requireMaySpend } from '../users/users.service';
import * as generations from './generations.service';
import { extendGeneration } from './extend.service';
import { lastFrameUpload } from './last-frame.service';
import { withoutOperatorNames } from '../../lib/operator-wording';

const idParams = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of one of the user's videos: what is not a uuid cannot be anyone's video (the same 404 as someone else's). */
function videoId(id: string): string {
  if (!UUID.test(id))
    throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
  return id;
}

/** Continue and Extend make a new video (or its input) from one: a token needs videos:write, and 20 a minute at most. */
const makesVideoFrom = {
  tokenScope: 'videos:write' as const,
  rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
};

export const generationsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/models',
    { config: { tokenScope: 'videos:read' }, schema: { response: { 200: modelListSchema } } },
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
      config: { tokenScope: 'videos:read' },
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
    { config: { tokenScope: 'videos:write' }, schema: { params: idParams, response: { 200: messageSchema } } },
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
      config: makesVideoFrom,
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
      config: makesVideoFrom,
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

  app.get(
    '/api/video-generation-jobs',
    {
      config: { tokenScope: 'videos:read' },
      schema: { response: { 200: z.array(generationJobSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('j', user))) return reply;
      // The job view of the same records, for clients that still read it.
      return presentJobs(ctx.secret, await generations.listGenerations(ctx, user.id), ctx.now());
    },
  );

  app.get(
    '/api/video-generation-jobs/recent',
    {
      config: { tokenScope: 'videos:read' },
      schema: { response: { 200: z.array(generationJobSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('r', user))) return reply;
      return presentJobs(
        ctx.secret,
        await generations.listGenerations(ctx, user.id, generations.RECENT_LIMIT),
        ctx.now(),
      );
    },
  );
};
