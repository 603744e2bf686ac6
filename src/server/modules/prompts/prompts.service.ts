import { buffer } from 'node:stream/consumers';
import {
  type AnalyzeImageRequest,
  analyzeImageRequestSchema,
  ENHANCE_PROMPT_REQUIRED_MESSAGE,
  type EnhanceTextRequest,
  enhanceTextRequestSchema,
  type ImageAnalysis,
  type PromptEnhancement,
} from '../../../shared/ai';
import { analyzeImage, type ObjectDetector } from '../../ai/image-analyzer';
import { enhancePrompt } from '../../ai/prompt-enhancer';
import type { Config } from '../../config';
import { badRequest } from '../../lib/app-error';
import { resolveUploadRef, type UploadDeps } from '../uploads/uploads.service';

export interface PromptsDeps extends UploadDeps {
  config: Pick<Config, 'gemini'>;
  detectObjects: ObjectDetector;
  /** Backoff before a rate-limited AI call is retried (tests make it short). */
  aiRetryDelayMs?: number;
}

/** Improves a description: Gemini with a key, the local enhancer without. Blank: 400 prompt_required. */
export async function enhanceText(deps: PromptsDeps, input: EnhanceTextRequest): Promise<PromptEnhancement> {
  const request = enhanceTextRequestSchema.parse(input);
  const userPrompt = request.userPrompt.trim();
  if (!userPrompt) throw badRequest(ENHANCE_PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  return enhancePrompt(deps.config, { ...request, userPrompt }, { retryDelayMs: deps.aiRetryDelayMs });
}

/**
 * Analyses one of the caller's own completed image uploads (anything else: 400). The reference is
 * resolved to a stored object, so the server never fetches a URL it was given.
 */
export async function analyzeUpload(deps: PromptsDeps, userId: string, input: AnalyzeImageRequest): Promise<ImageAnalysis> {
  const request = analyzeImageRequestSchema.parse(input);
  const upload = await resolveUploadRef(deps, userId, request.imageUrl);
  if (upload.kind !== 'image') throw badRequest('Only an uploaded image can be analysed.', 'not_an_image');
  const bytes = await buffer(await deps.storage.read(upload.objectKey));
  return analyzeImage(deps.config, { bytes, contentType: upload.contentType }, deps.detectObjects, {
    generatePrompt: request.generatePrompt,
    analysisType: request.analysisType,
    retryDelayMs: deps.aiRetryDelayMs,
  });
}
