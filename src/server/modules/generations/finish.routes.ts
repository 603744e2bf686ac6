import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { finishBodySchema, finishingCatalogueSchema } from '../../../shared/finishing';
import { createdGenerationSchema } from '../../../shared/generations';
import type { ServiceContext } from '../../context';
import { finishingCatalogue } from '../../engines/finishing';
import { rateLimitKey, requireUser } from '../../http/guards';
import { idParams, uuidOr404 } from '../../http/path-ids';
import {
  apiDoc,
  CONTENT_POLICY,
  EMAIL_UNVERIFIED,
  NOT_FOUND_VIDEO,
  TOO_MANY_UNFINISHED,
  VIDEO_RECORD,
} from '../../http/openapi-words';
import { withoutOperatorNames } from '../../lib/operator-wording';
import { requireMaySpend } from '../users/users.service';
import { finishVideo } from './finish.service';
import { presentCreated } from './generations.presenter';

/** Finishing (issue 48): the tools this server has, and an action on a finished video making a new one. */
export const finishRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/finishing',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Videos', {
          summary: 'List the finishing tools',
          operationId: 'listFinishingTools',
          description:
            'What can be done to a finished video here (upscale and smooth, add sound, lip-sync, restyle), by which ' +
            'tool, at what price (credits per video or per second of the video) and within which limits, and whether ' +
            'each is available now. `ai` is false for this server’s own FFmpeg work.',
          example: { tools: finishingCatalogue({}) },
        }),
      },
      schema: { response: { 200: finishingCatalogueSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const tools = ctx.engines.finishing();
      if (user.isAdmin) return { tools };
      return { tools: tools.map((tool) => ({ ...tool, reason: tool.reason && withoutOperatorNames(tool.reason) })) };
    },
  );

  app.post(
    '/api/video-generation/:id/finish',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Videos', {
          summary: 'Finish a video',
          operationId: 'finishVideo',
          description:
            'Makes a new video from one of your finished videos (its `parentId`): upscaled to 1080p or 2160p and ' +
            'smoothed to 48 or 60 frames a second, with a recording of yours laid under it (`add-sound`), lip-synced ' +
            'to a voice, or restyled, by the tool named (`tool`, from GET /api/finishing) or the first available one ' +
            'that fits. It is priced by the tool and paid like a video; every limit is checked before the charge.',
          requestExample: { action: 'upscale', resolution: '1080p', fps: 60 },
          example: {
            ...VIDEO_RECORD,
            model: 'local-upscale',
            creditsUsed: 0.8,
            group: [{ ...VIDEO_RECORD, model: 'local-upscale', creditsUsed: 0.8 }],
          },
          errors: [
            NOT_FOUND_VIDEO,
            {
              status: 400,
              code: 'video_too_long',
              message: 'Upscale and smooth on this server takes videos of at most 20 s; this one lasts 30 s.',
            },
            {
              status: 400,
              code: 'nothing_to_finish',
              message:
                'This video is already 1080 lines at 24 frames a second. Choose a larger resolution or more frames a second.',
            },
            {
              status: 400,
              code: 'finish_not_available',
              message: 'This server cannot lip-sync videos: none of its tools does.',
            },
            {
              status: 400,
              code: 'no_face',
              message:
                'This video shows no face, so there is no mouth to lip-sync. Choose a video where a face is seen clearly.',
            },
            {
              status: 400,
              code: 'audio_required',
              message: 'Add your recording on this server needs a recording: upload one, then try again.',
            },
            {
              status: 400,
              code: 'wrong_input_kind',
              message: 'audioFile must be a recording (or a video with sound); that upload is an image.',
            },
            { status: 402, code: 'insufficient_credits', message: 'Need 0.8 credits. You have 0.5.' },
            {
              status: 409,
              code: 'not_finished',
              message: 'This video is not finished yet. Finish it once it is ready.',
            },
            CONTENT_POLICY,
            EMAIL_UNVERIFIED,
            TOO_MANY_UNFINISHED,
          ],
        }),
      },
      schema: { params: idParams, body: finishBodySchema, response: { 201: createdGenerationSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const id = uuidOr404(request.params.id, NOT_FOUND_VIDEO);
      const created = await finishVideo(ctx, user.id, id, request.body, request.log);
      request.log.info(
        { generationId: created.row.id, parentId: id, action: request.body.action, tool: created.row.model },
        'finishing queued',
      );
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );
};
