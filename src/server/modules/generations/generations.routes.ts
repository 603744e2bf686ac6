import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import {
  createGenerationSchema,
  generationJobSchema,
  generationRecordSchema,
  modelListSchema,
} from '../../../shared/generations';
import { uploadCompleteSchema } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { requireUser } from '../../http/guards';
import { polledRoute } from '../../http/polled-route';
import { AppError, notFound } from '../../lib/app-error';
import * as generations from './generations.service';

const idParams = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const generationsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get('/api/models', { schema: { response: { 200: modelListSchema } } }, async (request) => {
    requireUser(request);
    return { models: ctx.engines.list() };
  });

  app.post(
    '/api/video-generation',
    {
      // Per user: the unfinished-jobs limit is the real cap; this only stops a runaway client.
      config: {
        rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: (request) => request.user?.id ?? request.ip },
      },
      schema: { body: createGenerationSchema, response: { 201: generationRecordSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = await generations.createGeneration(ctx, user.id, request.body);
      request.log.info({ generationId: row.id, model: row.model }, 'generation queued');
      // With its queue place and estimates, like the live event about it: the browser puts this
      // answer into its lists, and it must not hide a place the event already brought.
      const [record] = await generations.presentRecords(ctx, [row]);
      return reply.status(201).send(record ?? generations.presentRecord(ctx.secret, row, ctx.now()));
    },
  );

  const listTag = (kind: string, user: { id: string; liveVersion: number }) => liveStateTag(kind, user, ctx.now());

  app.get(
    '/api/video-generation',
    {
      schema: { response: { 200: z.array(generationRecordSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('v', user))) return reply;
      return generations.presentRecords(ctx, await generations.listGenerations(ctx, user.id));
    },
  );

  app.delete(
    '/api/video-generation/:id',
    { schema: { params: idParams, response: { 200: messageSchema } } },
    async (request) => {
      const user = requireUser(request);
      // Not a uuid cannot be anyone's video: the same 404 as someone else's.
      if (!UUID.test(request.params.id))
        throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
      await generations.deleteGeneration(ctx, user.id, request.params.id);
      return { message: 'Video deleted' };
    },
  );

  // Continue: the video's last frame as a new image upload of the user's, for the next generation.
  app.post(
    '/api/video-generation/:id/last-frame',
    {
      config: {
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: (request) => request.user?.id ?? request.ip },
      },
      schema: { params: idParams, response: { 201: uploadCompleteSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!UUID.test(request.params.id))
        throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
      return reply.status(201).send(await generations.lastFrameUpload(ctx, user.id, request.params.id));
    },
  );

  // Replicate signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/webhooks/replicate',
      {
        config: { allowCrossSite: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
        schema: { response: { 200: z.object({ received: z.literal(true) }) } },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!(await generations.receiveReplicateWebhook(ctx, request.headers, raw))) {
          throw new AppError(401, 'invalid_signature', 'This webhook is not signed by Replicate.');
        }
        return { received: true as const };
      },
    );
  });

  app.get(
    '/api/video-generation-jobs',
    {
      schema: { response: { 200: z.array(generationJobSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('j', user))) return reply;
      const now = ctx.now();
      return (await generations.listGenerations(ctx, user.id)).map((row) =>
        generations.presentJob(ctx.secret, row, now),
      );
    },
  );

  app.get(
    '/api/video-generation-jobs/recent',
    {
      schema: { response: { 200: z.array(generationJobSchema) } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (answerNotModified(request, reply, listTag('r', user))) return reply;
      const now = ctx.now();
      const rows = await generations.listGenerations(ctx, user.id, generations.RECENT_LIMIT);
      return rows.map((row) => generations.presentJob(ctx.secret, row, now));
    },
  );
};
