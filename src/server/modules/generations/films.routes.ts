import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createFilmSchema } from '../../../shared/films';
import { createdGenerationSchema } from '../../../shared/generations';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import {
  apiDoc,
  CONTENT_POLICY,
  EMAIL_UNVERIFIED,
  TOO_MANY_UNFINISHED,
  NOT_FOUND_VIDEO,
  UPLOAD_PATH,
  VIDEO_ID,
  VIDEO_RECORD,
} from '../../http/openapi-words';
import { requireMaySpend } from '../users/users.service';
import { createFilm } from './film.service';
import { presentCreated } from './generations.presenter';

/** Films (issue 47): finished videos and title cards joined into one new video. */
export const filmsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/films',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Videos', {
          summary: 'Make a film of your videos',
          operationId: 'createFilm',
          description:
            'Joins finished videos of yours (each trimmed by `start` and `end`, in seconds) and title cards, in order, ' +
            'with a cut, a crossfade or a fade through black between each two, captions over shots and an uploaded ' +
            'track under the whole, into one new video of the chosen shape (shots of another shape are framed whole ' +
            'over a blurred fill). The sound is brought to −16 LUFS (EBU R128). It is free: its shots were paid for. ' +
            'The answer is the new video, made like any other (GET /api/video-generation follows it).',
          requestExample: {
            title: 'The lighthouse',
            aspectRatio: '16:9',
            parts: [
              { card: { text: 'The lighthouse', seconds: 2 } },
              { video: VIDEO_ID, start: 0.5, end: 4 },
              { video: VIDEO_ID, caption: 'At dusk' },
            ],
            transitions: ['cut', 'crossfade'],
            transitionSeconds: 0.5,
            bedFile: UPLOAD_PATH,
          },
          example: {
            ...VIDEO_RECORD,
            model: 'film',
            creditsUsed: 0,
            group: [{ ...VIDEO_RECORD, model: 'film', creditsUsed: 0 }],
          },
          errors: [
            NOT_FOUND_VIDEO,
            { status: 400, code: 'invalid_film', message: 'Part 2 lasts 0.8 s, too short for its 0.5 s transitions.' },
            { status: 400, code: 'trim_outside_video', message: 'Part 2 ends at 9 s, but its video lasts 4 s.' },
            {
              status: 400,
              code: 'video_expired',
              message: 'Part 2 has expired (videos are kept for 24 hours). Make it again, or choose another take.',
            },
            {
              status: 400,
              code: 'film_too_long',
              message: 'A film lasts at most 10 minutes; this one would last 612 s.',
            },
            {
              status: 400,
              code: 'invalid_upload',
              message: 'That file is not one of your uploads, or its upload did not finish.',
            },
            {
              status: 400,
              code: 'wrong_input_kind',
              message: 'bedFile must be a music or voice recording (or a video with sound); that upload is an image.',
            },
            {
              status: 409,
              code: 'not_finished',
              message: 'Part 2 is not finished yet. Make the film once it is ready.',
            },
            CONTENT_POLICY,
            EMAIL_UNVERIFIED,
            TOO_MANY_UNFINISHED,
          ],
        }),
      },
      schema: { body: createFilmSchema, response: { 201: createdGenerationSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const created = await createFilm(ctx, user.id, request.body, request.log);
      request.log.info({ generationId: created.row.id, parts: request.body.parts.length }, 'film queued');
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );
};
