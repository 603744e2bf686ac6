import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import { createdGenerationSchema } from '../../../shared/generations';
import {
  renderedShotsSchema,
  renderShotsSchema,
  storyboardBodySchema,
  storyboardListSchema,
  storyboardSchema,
} from '../../../shared/storyboards';
import type { ServiceContext } from '../../context';
import { rateLimitKey, requireUser } from '../../http/guards';
import { idParams, uuidOr404 } from '../../http/path-ids';
import {
  apiDoc,
  CONTENT_POLICY,
  EMAIL_UNVERIFIED,
  TOO_MANY_UNFINISHED,
  type ErrorAnswer,
  UPLOAD_PATH,
  VIDEO_ID,
  VIDEO_RECORD,
} from '../../http/openapi-words';
import { presentCreated } from '../generations/generations.service';
import { requireMaySpend } from '../users/users.service';
import * as storyboards from './storyboards.service';

// Storyboards (issue 47): the board's own routes; its takes are videos (GET /api/video-generation
// lists them too) and its film is made as POST /api/films makes one.

const shotParams = idParams.extend({ shotId: z.string().max(100) });

const NOT_FOUND_BOARD: ErrorAnswer = {
  status: 404,
  code: 'storyboard_not_found',
  message: 'This storyboard was not found. It may have been deleted.',
};
const NOT_FOUND_SHOT: ErrorAnswer = {
  status: 404,
  code: 'shot_not_found',
  message: 'This shot is not on the storyboard. It may have been deleted.',
};

const boardId = (id: string) => uuidOr404(id, NOT_FOUND_BOARD);

const SHOT_ID = '7d1c2a54-3b9e-4f0a-8c61-2e5f9a0b4d13';
const BOARD_ID = '5b0e8f3c-6a2d-4e71-9f14-c3d2a1b0e9f8';
const SHOT_EXAMPLE = {
  id: SHOT_ID,
  description: 'The keeper climbs the spiral stairs with a lamp',
  model: 'local',
  aspectRatio: '16:9',
  duration: 4,
  hasAudio: false,
  referenceImageFiles: [],
  fromPrevious: true,
  trimStart: 0.5,
  trimEnd: 3.5,
  caption: 'Night falls',
  transition: 'crossfade',
} as const;
const BOARD_EXAMPLE = {
  name: 'The lighthouse',
  shots: [SHOT_EXAMPLE],
  aspectRatio: '16:9',
  resolution: '720p',
  titleCard: { text: 'The lighthouse', seconds: 2, background: '#111827' },
  transitionSeconds: 0.5,
  bedFile: UPLOAD_PATH,
} as const;
const BOARD_ANSWER = {
  ...BOARD_EXAMPLE,
  id: BOARD_ID,
  version: 3,
  shots: [{ ...SHOT_EXAMPLE, state: 'ready', takes: [{ ...VIDEO_RECORD, status: 'completed' }], usedTakeId: VIDEO_ID }],
  creditsToRender: 0,
  films: [],
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:05:00.000Z',
};
const RENDER_ERRORS: ErrorAnswer[] = [
  {
    status: 400,
    code: 'prompt_required',
    message: 'Shot 2 has no description yet. Say what happens in it, then render it.',
  },
  {
    status: 409,
    code: 'previous_shot_not_ready',
    message: 'Shot 2 starts from the last frame of Shot 1, which has no finished take yet. Render Shot 1 first.',
  },
  { status: 402, code: 'insufficient_credits', message: 'Need 4 credits. You have 1.' },
  CONTENT_POLICY,
  EMAIL_UNVERIFIED,
  TOO_MANY_UNFINISHED,
];

export const storyboardsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/storyboards',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Storyboards', {
          summary: 'List your storyboards',
          operationId: 'listStoryboards',
          description: 'The latest edited first, with how many shots each has and how many have a finished take.',
          example: {
            storyboards: [
              { id: BOARD_ID, name: 'The lighthouse', shots: 3, readyShots: 2, updatedAt: '2026-11-29T10:05:00.000Z' },
            ],
          },
        }),
      },
      schema: { response: { 200: storyboardListSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return { storyboards: await storyboards.listStoryboards(ctx, user.id) };
    },
  );

  app.post(
    '/api/storyboards',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Storyboards', {
          summary: 'Make a storyboard',
          operationId: 'createStoryboard',
          description:
            'A named board of ordered shots, each with its description and the generator’s controls. Shot ids are ' +
            'made by the client (uuids); a shot’s renders carry them. Nothing is charged until a shot is rendered.',
          requestExample: BOARD_EXAMPLE,
          example: {
            ...BOARD_ANSWER,
            version: 1,
            shots: [{ ...BOARD_ANSWER.shots[0], state: 'missing', takes: [], usedTakeId: null }],
          },
          errors: [
            {
              status: 400,
              code: 'too_many_storyboards',
              message: 'You can keep up to 100 storyboards. Delete one you no longer need, then make a new one.',
            },
          ],
        }),
      },
      schema: { body: storyboardBodySchema, response: { 201: storyboardSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return reply.status(201).send(await storyboards.createStoryboard(ctx, user.id, request.body));
    },
  );

  app.get(
    '/api/storyboards/:id',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Storyboards', {
          summary: 'Read a storyboard',
          operationId: 'getStoryboard',
          description:
            'The board with each shot’s takes (newest first), the take its film uses (`usedTakeId`), where each shot ' +
            'stands, the credits rendering every missing shot costs, and the films exported from it.',
          example: BOARD_ANSWER,
          errors: [NOT_FOUND_BOARD],
        }),
      },
      schema: { params: idParams, response: { 200: storyboardSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return storyboards.getStoryboard(ctx, user.id, boardId(request.params.id));
    },
  );

  app.put(
    '/api/storyboards/:id',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Storyboards', {
          summary: 'Change a storyboard',
          operationId: 'updateStoryboard',
          description:
            'Replaces the board: its name, its shots in their new order, their trims, captions and transitions, and ' +
            'the film’s settings. Send the `version` you read to be told (409) when another window changed it meanwhile.',
          requestExample: { ...BOARD_EXAMPLE, version: 3 },
          example: { ...BOARD_ANSWER, version: 4 },
          errors: [
            NOT_FOUND_BOARD,
            { status: 400, code: 'invalid_chosen_take', message: 'Shot 2’s chosen take is not a take of that shot.' },
            {
              status: 409,
              code: 'storyboard_changed',
              message:
                'This storyboard was changed in another window meanwhile. Reload it to see the changes, then edit again.',
            },
          ],
        }),
      },
      schema: { params: idParams, body: storyboardBodySchema, response: { 200: storyboardSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return storyboards.updateStoryboard(ctx, user.id, boardId(request.params.id), request.body);
    },
  );

  app.delete(
    '/api/storyboards/:id',
    {
      config: {
        tokenScope: 'videos:write',
        doc: apiDoc('Storyboards', {
          summary: 'Delete a storyboard',
          operationId: 'deleteStoryboard',
          description: 'Its takes and films stay among your videos.',
          example: { message: 'Storyboard deleted' },
          errors: [NOT_FOUND_BOARD],
        }),
      },
      schema: { params: idParams, response: { 200: messageSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await storyboards.deleteStoryboard(ctx, user.id, boardId(request.params.id));
      return { message: 'Storyboard deleted' };
    },
  );

  app.post(
    '/api/storyboards/:id/shots/:shotId/takes',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Storyboards', {
          summary: 'Render a shot',
          operationId: 'renderShot',
          description:
            'Makes a take of one shot (its first, or another beside the earlier ones) from its description and ' +
            'controls, charged as any video; a shot with `fromPrevious` starts from the last frame of the previous ' +
            'shot’s take in use. The new take is the one the film uses once it is finished. The other shots are untouched.',
          requestExample: { consentToLikeness: false },
          example: { ...VIDEO_RECORD, group: [VIDEO_RECORD] },
          errors: [NOT_FOUND_BOARD, NOT_FOUND_SHOT, ...RENDER_ERRORS],
        }),
      },
      schema: { params: shotParams, body: renderShotsSchema, response: { 201: createdGenerationSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const shotId = uuidOr404(request.params.shotId, NOT_FOUND_SHOT);
      const created = await storyboards.renderShot(
        ctx,
        user.id,
        boardId(request.params.id),
        shotId,
        request.body.consentToLikeness,
        request.log,
      );
      request.log.info({ generationId: created.row.id, shotId }, 'shot queued');
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );

  app.post(
    '/api/storyboards/:id/render',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Storyboards', {
          summary: 'Render every missing shot',
          operationId: 'renderMissingShots',
          description:
            'Renders, in order, every shot with no take yet, each charged as it starts (their sum is the board’s ' +
            '`creditsToRender`). A shot that cannot start now is in `waiting` with the reason: one that starts from ' +
            'a shot not finished yet, or one past the limit of videos in progress or the balance.',
          requestExample: { consentToLikeness: false },
          example: {
            started: [{ shotId: SHOT_ID, take: VIDEO_RECORD }],
            waiting: [
              {
                shotId: '0f6e2d1c-9a8b-4c7d-8e5f-4a3b2c1d0e9f',
                reason: 'Shot 3 starts from the last frame of Shot 2: render it once Shot 2 has a finished take.',
              },
            ],
          },
          errors: [
            NOT_FOUND_BOARD,
            {
              status: 400,
              code: 'nothing_to_render',
              message: 'Every shot already has a take. Render a shot again to make another take of it.',
            },
            ...RENDER_ERRORS,
          ],
        }),
      },
      schema: { params: idParams, body: renderShotsSchema, response: { 201: renderedShotsSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const rendered = await storyboards.renderMissingShots(
        ctx,
        user.id,
        boardId(request.params.id),
        request.body.consentToLikeness,
        request.log,
      );
      return reply.status(201).send(rendered);
    },
  );

  app.post(
    '/api/storyboards/:id/export',
    {
      config: {
        tokenScope: 'videos:write',
        rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: rateLimitKey },
        doc: apiDoc('Storyboards', {
          summary: 'Export a storyboard as one film',
          operationId: 'exportStoryboard',
          description:
            'The title card, then each shot’s take in use (trimmed, captioned, meeting the next by its transition) ' +
            'and the bed under the whole, made into one new video as POST /api/films makes it: free (its takes were ' +
            'paid for), followed like any video, and announced by the `film.completed` webhook.',
          example: {
            ...VIDEO_RECORD,
            model: 'film',
            creditsUsed: 0,
            group: [{ ...VIDEO_RECORD, model: 'film', creditsUsed: 0 }],
          },
          errors: [
            NOT_FOUND_BOARD,
            {
              status: 400,
              code: 'no_shots',
              message: 'This storyboard has no shots yet. Add a shot and render it, then export.',
            },
            {
              status: 409,
              code: 'shot_not_ready',
              message: 'Shot 2 has no finished take yet. Render it (or delete the shot), then export.',
            },
            { status: 400, code: 'invalid_film', message: 'Part 2 lasts 0.8 s, too short for its 0.5 s transitions.' },
            CONTENT_POLICY,
            EMAIL_UNVERIFIED,
            TOO_MANY_UNFINISHED,
          ],
        }),
      },
      schema: { params: idParams, response: { 201: createdGenerationSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireMaySpend(ctx, user);
      const created = await storyboards.exportStoryboard(ctx, user.id, boardId(request.params.id), request.log);
      request.log.info({ generationId: created.row.id }, 'storyboard film queued');
      return reply.status(201).send(await presentCreated(ctx, created));
    },
  );
};
