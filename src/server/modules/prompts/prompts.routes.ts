import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  analyzeImageAnswerSchema,
  analyzeImageRequestSchema,
  enhanceTextAnswerSchema,
  enhanceTextRequestSchema,
} from '../../../shared/ai';
import type { ServiceContext } from '../../context';
import { perUserRateLimit, requireUser } from '../../http/guards';
import { apiDoc, CONTENT_POLICY, type ErrorAnswer, FILE_GONE } from '../../http/openapi-words';
import * as prompts from './prompts.service';

/**
 * Per user (per IP when signed out), the user's tokens included: each call costs money (Gemini) or
 * CPU (the local detector). A token needs `videos:write` (the result is spent on a video).
 */
const perUserLimit = { tokenScope: 'videos:write' as const, ...perUserRateLimit(30, '1 minute') };

const AI_DOWN: ErrorAnswer = {
  status: 502,
  code: 'ai_unavailable',
  message: 'The AI service could not be reached. Please try again.',
};

export const promptsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/prompts/enhance-text',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Prompts', {
          summary: 'Improve a prompt',
          operationId: 'enhancePrompt',
          requestExample: { userPrompt: 'an astronaut on the moon' },
          errors: [CONTENT_POLICY, AI_DOWN],
        }),
      },
      schema: { body: enhanceTextRequestSchema, response: { 200: enhanceTextAnswerSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { data, resultId } = await prompts.enhanceText(ctx, user.id, request.body);
      return { success: true as const, data, resultId };
    },
  );

  app.post(
    '/api/prompts/analyze-image',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Prompts', {
          summary: 'Describe an uploaded image as a prompt',
          operationId: 'describeImage',
          errors: [
            {
              status: 400,
              code: 'invalid_upload',
              message: 'That file is not one of your uploads, or its upload did not finish.',
            },
            FILE_GONE,
            AI_DOWN,
          ],
        }),
      },
      schema: { body: analyzeImageRequestSchema, response: { 200: analyzeImageAnswerSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const { data, resultId } = await prompts.analyzeUpload(ctx, user.id, request.body);
      return { success: true as const, data, resultId };
    },
  );
};
