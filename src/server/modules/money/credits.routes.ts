import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { creditBalanceSchema, toCredits } from '../../../shared/money/credits';
import { costEstimateRequestSchema, costEstimateSchema, estimateCost } from '../../../shared/money/pricing';
import { requireUser } from '../../http/guards';

export const creditsRoutes: FastifyPluginAsyncZod = async (app) => {
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
      return { success: true as const, data: estimateCost({ ...inputs, userPlan: user.plan }) };
    },
  );

  app.get('/api/credits/balance', { schema: { response: { 200: creditBalanceSchema } } }, async (request) => {
    // The session hook loaded the user's row with this request: the balance is current.
    return { credits: toCredits(requireUser(request).creditsHundredths) };
  });
};
