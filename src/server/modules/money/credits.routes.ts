import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { creditBalanceSchema, toCredits } from '../../../shared/money/credits';
import { generationStatusSchema } from '../../../shared/money/plans';
import { costEstimateRequestSchema, costEstimateSchema, estimateCost } from '../../../shared/money/pricing';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { requireUser } from '../../http/guards';
import { polledRoute } from '../../http/polled-route';
import { modelPriceFor } from '../generations/generations.service';
import { generationStatus } from './allowances.service';

/** What a user has to spend and what a video would cost them. */
export const creditsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/credits/estimate',
    {
      schema: {
        body: costEstimateRequestSchema.optional(),
        response: { 200: z.object({ success: z.literal(true), data: costEstimateSchema }) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const inputs = costEstimateRequestSchema.parse(request.body ?? {});
      // The plan that prices the request is the user's own, whatever the client says.
      // The model's base price is the catalogue's (MODELS_CONFIG), as when the video is charged.
      return {
        success: true as const,
        data: estimateCost({ ...inputs, userPlan: user.plan }, modelPriceFor(ctx, inputs.model)),
      };
    },
  );

  app.get('/api/credits/balance', { schema: { response: { 200: creditBalanceSchema } } }, async (request) => {
    // The session hook loaded the user's row with this request: the balance is current.
    return { credits: toCredits(requireUser(request).creditsHundredths) };
  });

  app.get(
    '/api/user/generation-status',
    { schema: { response: { 200: generationStatusSchema } }, serializerCompiler: trustedSerializer, ...polledRoute },
    async (request, reply) => {
      const user = requireUser(request);
      // Daily and pack generations, credits and the status all move the live version when they change.
      if (answerNotModified(request, reply, liveStateTag('g', user, ctx.now()))) return reply;
      return generationStatus(ctx, user);
    },
  );
};
