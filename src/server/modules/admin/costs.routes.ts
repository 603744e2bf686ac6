import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminCostsQuerySchema, adminCostsSchema } from '../../../shared/admin-costs';
import type { ServiceContext } from '../../context';
import { requireAdmin } from '../../http/guards';
import { apiDoc, NOT_ADMIN } from '../../http/openapi-words';
import { costsReport } from './costs.service';

/** One day's figures for one model, as GET /api/admin/costs answers them. */
const COST_FIGURES = {
  videos: 3,
  completed: 2,
  paidWithCredits: 3,
  paidWithDaily: 0,
  paidWithPack: 0,
  free: 0,
  creditsCharged: 12,
  creditsGiven: 0,
  revenueUsd: 12,
  providerCostUsd: 6.4,
  completedWithoutCost: 0,
  marginUsd: 5.6,
};

/** The cost view's API (issue 31): administrators only, every decision taken from the session. */
export const adminCostsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/costs',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'Videos, credits charged, provider cost and margin per day and model',
          description:
            'Per UTC day and model over the last `days` days (1 to 90, default 14). Provider cost comes from MODELS_CONFIG `providerCost` as it was when each video was made; revenue values a credit, a daily and a pack generation as `valuation` says, so the margin is a floor.',
          example: {
            days: 1,
            from: '2026-11-25',
            to: '2026-11-25',
            rows: [{ day: '2026-11-25', model: 'veo3', modelName: 'Veo 3', ...COST_FIGURES }],
            dayTotals: [{ day: '2026-11-25', ...COST_FIGURES }],
            totals: COST_FIGURES,
            valuation: { creditUsd: 1, dailyGenerationUsd: 0.133333, packGenerationUsd: 0.285714 },
            defaultDailySpendCap: 50,
          },
          errors: [NOT_ADMIN],
        }),
      },
      schema: { querystring: adminCostsQuerySchema, response: { 200: adminCostsSchema } },
    },
    async (request) => costsReport(ctx, request.query),
  );
};
