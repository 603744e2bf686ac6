import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { liveBalanceSchema } from '../../../shared/live-events';
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
import { presentBalance, presentCreditBalance } from './balance.service';

/** What a user has to spend and what a video would cost them. */
export const creditsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/credits/estimate',
    {
      config: {
        tokenScope: 'videos:read',
        doc: apiDoc('Credits', {
          summary: 'What a video would cost',
          operationId: 'estimateCost',
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

  app.get(
    '/api/credits/balance',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', { summary: 'Your credits', operationId: 'getCredits' }),
      },
      schema: { response: { 200: creditBalanceSchema } },
    },
    async (request) => {
      // The session hook loaded the user's row with this request: the balance is current.
      return presentCreditBalance(requireUser(request));
    },
  );

  // The one balance the client reads: credits, unlimited flag, plan, subscription, daily and extra
  // generations, the same answer as the live 'balance' event. The routes around it answer its parts.
  app.get(
    '/api/user/balance',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your balance',
          operationId: 'getBalance',
          etag: true,
          description:
            'Credits, plan, subscription and daily and extra generations: the same answer as the live `balance` event.',
        }),
      },
      schema: { response: { 200: liveBalanceSchema } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Daily and pack generations move the live version, and the minute in the tag covers the 3am
      // reset; the row's own figures are in it too, so it is never older than /api/user/status's.
      const tag = liveStateTag(`b-${user.creditsHundredths}-${user.subscriptionStatus}-${user.plan}`, user, ctx.now());
      if (answerNotModified(request, reply, tag)) return reply;
      return presentBalance(ctx, user);
    },
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
};
