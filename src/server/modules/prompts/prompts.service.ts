import { buffer } from 'node:stream/consumers';
import type { z } from 'zod';
import {
  type analyzeImageRequestSchema,
  ENHANCE_PROMPT_REQUIRED_MESSAGE,
  type enhanceTextRequestSchema,
  type ImageAnalysis,
  type PromptEnhancement,
} from '../../../shared/ai';
import { analyzeImage } from '../../ai/image-analyzer';
import { enhancePrompt } from '../../ai/prompt-enhancer';
import type { ServiceContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { resolveUploadRef } from '../uploads/uploads.service';

/** Improves a description: Gemini with a key, the local enhancer without. Blank: 400 prompt_required. */
export async function enhanceText(ctx: ServiceContext, request: z.output<typeof enhanceTextRequestSchema>): Promise<PromptEnhancement> {
  const userPrompt = request.userPrompt.trim();
  if (!userPrompt) throw badRequest(ENHANCE_PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  return enhancePrompt(ctx.config, { ...request, userPrompt }, { retryDelayMs: ctx.aiRetryDelayMs });
}

/**
 * Analyses one of the caller's own completed image uploads (anything else: 400). The reference is
 * resolved to a stored object, so the server never fetches a URL it was given.
 */
export async function analyzeUpload(
  ctx: ServiceContext,
  userId: string,
  request: z.output<typeof analyzeImageRequestSchema>,
): Promise<ImageAnalysis> {
  const upload = await resolveUploadRef(ctx, userId, request.imageUrl);
  if (upload.kind !== 'image') throw badRequest('Only an uploaded image can be analysed.', 'not_an_image');
  const bytes = await buffer(await ctx.storage.read(upload.objectKey));
  return analyzeImage(ctx.config, { bytes, contentType: upload.contentType }, ctx.detectObjects, {
    generatePrompt: request.generatePrompt,
    analysisType: request.analysisType,
    retryDelayMs: ctx.aiRetryDelayMs,
  });
}
