import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  analyzeImageAnswerSchema,
  analyzeImageRequestSchema,
  enhanceTextAnswerSchema,
  enhanceTextRequestSchema,
} from '../../../shared/ai';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import * as prompts from './prompts.service';

/**
 * Per user (per IP when signed out), the user's tokens included: each call costs money (Gemini) or
 * CPU (the local detector). A token needs `videos:write` (the result is spent on a video).
 */
const perUserLimit = {
  tokenScope: 'videos:write' as const,
  rateLimit: {
    max: 30,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => request.user?.id ?? request.ip,
  },
};

export const promptsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/prompts/enhance-text',
    { config: perUserLimit, schema: { body: enhanceTextRequestSchema, response: { 200: enhanceTextAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      const { data, resultId } = await prompts.enhanceText(ctx, user.id, request.body);
      return { success: true as const, data, resultId };
    },
  );

  app.post(
    '/api/prompts/analyze-image',
    { config: perUserLimit, schema: { body: analyzeImageRequestSchema, response: { 200: analyzeImageAnswerSchema } } },
    async (request) => {
      const user = requireUser(request);
      const { data, resultId } = await prompts.analyzeUpload(ctx, user.id, request.body);
      return { success: true as const, data, resultId };
    },
  );
};
