import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userStatusSchema } from '../../../shared/auth';
import { generationJobSchema } from '../../../shared/generations';
import { renderedShape } from '../../../shared/models';
import { creditBalanceSchema } from '../../../shared/money/credits';
import { generationStatusSchema } from '../../../shared/money/plans';
import {
  costEstimateRequestSchema,
  costEstimateSchema,
  ESTIMATE_DEFAULT_MODEL,
  estimateCost,
} from '../../../shared/money/pricing';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { badRequest } from '../../lib/app-error';
import * as generations from '../generations/generations.service';
import { presentBalance, presentUserStatus } from '../money/balance.service';
import { toJobView } from './job-view';

/**
 * The routes the product specification's own client calls and this app's client does not, kept so
 * that client keeps working (issue 41): each a thin view over what the app's own routes answer.
 * The credits alone, the plan, today's allowance (parts of GET /api/user/balance), the job view of
 * the video list (GET /api/video-generation renamed) and the price estimate with the specification's
 * default model (the generator prices from the catalogue and shared/money/pricing.ts itself). Nothing
 * else in the server or the client calls them; a new client reads /api/user/balance,
 * /api/video-generation and /api/models.
 */
export const specClientRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/api/user/status',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your plan, subscription and credits',
          operationId: 'getStatus',
          etag: true,
          description: 'Part of GET /api/user/balance (its `status`), for the specification’s client.',
        }),
      },
      schema: { response: { 200: userStatusSchema } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Everything the answer says is on the session's user row: the tag is those three values.
      if (answerNotModified(request, reply, `"s-${user.creditsHundredths}-${user.subscriptionStatus}-${user.plan}"`))
        return reply;
      return presentUserStatus(user);
    },
  );

  app.get(
    '/api/credits/balance',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your credits',
          operationId: 'getCredits',
          description: 'The credits of GET /api/user/balance alone, for the specification’s client.',
        }),
      },
      schema: { response: { 200: creditBalanceSchema } },
    },
    // The session hook loaded the user's row with this request: the balance is current.
    async (request) => ({ credits: presentUserStatus(requireUser(request)).availableCredits }),
  );

  app.get(
    '/api/user/generation-status',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your generation allowance today',
          operationId: 'getGenerationAllowance',
          etag: true,
          description: 'Part of GET /api/user/balance (its `generationStatus`), for the specification’s client.',
        }),
      },
      schema: { response: { 200: generationStatusSchema } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Daily and pack generations, credits and the status all move the live version when they change.
      if (answerNotModified(request, reply, liveStateTag('g', user, ctx.now()))) return reply;
      return (await presentBalance(ctx, user)).generationStatus;
    },
  );

  const jobView = (path: string, tagKind: string, limit: number | undefined, summary: string, operationId: string) =>
    app.get(
      path,
      {
        config: {
          tokenScope: 'videos:read',
          doc: apiDoc('Videos', {
            summary,
            operationId,
            etag: true,
            description: 'The videos of GET /api/video-generation in the job view the specification’s client reads.',
          }),
        },
        schema: { response: { 200: z.array(generationJobSchema) } },
        serializerCompiler: trustedSerializer,
        ...polledRoute,
      },
      async (request, reply) => {
        const user = requireUser(request);
        if (answerNotModified(request, reply, liveStateTag(tagKind, user, ctx.now()))) return reply;
        const rows = await generations.listGenerations(ctx, user.id, limit);
        return rows.map((row) => toJobView(generations.presentRecord(ctx.secret, row, ctx.now())));
      },
    );
  jobView('/api/video-generation-jobs', 'j', undefined, 'List your videos (job view)', 'listVideoJobs');
  jobView(
    '/api/video-generation-jobs/recent',
    'r',
    generations.RECENT_LIMIT,
    'List your most recent videos (job view)',
    'listRecentVideoJobs',
  );

  app.post(
    '/api/credits/estimate',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Credits', {
          summary: 'What a video would cost',
          operationId: 'estimateCost',
          description:
            'For the specification’s client: the price of a video before it is made (with no model named, Veo 3’s). ' +
            'The same figures as the charge: the catalogue’s price for the model, its add-ons and the plan’s discount.',
          requestExample: { model: 'veo3', duration: 4, hasAudio: false, isEconomy: true },
          errors: [{ status: 400, code: 'unknown_model', message: 'This server has no model called "veo9".' }],
        }),
      },
      schema: {
        body: costEstimateRequestSchema.optional(),
        response: { 200: z.object({ success: z.literal(true), data: costEstimateSchema }) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const inputs = costEstimateRequestSchema.parse(request.body ?? {});
      // No model named: the estimate's own default (Veo 3), priced from the catalogue like any other.
      const model = inputs.model ?? ESTIMATE_DEFAULT_MODEL;
      // The model's base price is the catalogue's (MODELS_CONFIG), as when the video is charged.
      const price = ctx.engines.price(model);
      const info = ctx.engines.info(model);
      if (!price || !info) throw badRequest(`This server has no model called "${model}".`, 'unknown_model');
      if (inputs.resolution && !info.resolutions.includes(inputs.resolution))
        throw badRequest(
          `${info.name} renders ${info.resolutions.join(', ')}, not ${inputs.resolution}.`,
          'resolution_not_supported',
        );
      // Priced at what the video would be rendered at: the duration the model renders nearest, its default resolution.
      const shape = renderedShape(info, inputs);
      const priced = { ...inputs, model, duration: shape.duration, resolution: shape.resolution };
      return { success: true as const, data: estimateCost(priced, price, user.plan) };
    },
  );
};
