import { buffer } from 'node:stream/consumers';
import type { z } from 'zod';
import {
  type analyzeImageRequestSchema,
  ENHANCE_PROMPT_REQUIRED_MESSAGE,
  type enhanceTextRequestSchema,
  type ImageAnalysis,
  type PromptEnhancement,
} from '../../../shared/ai';
import { AUDIO_DESCRIPTION_SEPARATOR } from '../../../shared/generations';
import { analyzeImage } from '../../ai/image-analyzer';
import { enhancePrompt } from '../../ai/prompt-enhancer';
import type { ServiceContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { resolveUploadRef } from '../uploads/uploads.service';
import * as results from './ai-results.repository';

/** Improves a description: Gemini with a key, the local enhancer without. Blank: 400 prompt_required. */
export async function enhanceText(
  ctx: ServiceContext,
  userId: string,
  request: z.output<typeof enhanceTextRequestSchema>,
): Promise<PromptEnhancement> {
  const userPrompt = request.userPrompt.trim();
  if (!userPrompt) throw badRequest(ENHANCE_PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  const enhancement = await enhancePrompt(ctx.config, { ...request, userPrompt }, { retryDelayMs: ctx.aiRetryDelayMs });
  // Enhancing an image analysis's suggestion: a video made from the result uses both.
  const since = new Date(ctx.now().getTime() - AI_RESULT_VALID_MS);
  const recent = await results.recentAiResults(ctx.db, userId, since, RECENT_RESULTS);
  const fromSuggestion = recent.some(
    (row) => row.text === userPrompt && (row.kind === 'image_suggestion' || row.fromSuggestion),
  );
  await recordResult(ctx, userId, 'enhanced_prompt', enhancement.enhancedPrompt, fromSuggestion);
  return enhancement;
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
  const analysis = await analyzeImage(ctx.config, { bytes, contentType: upload.contentType }, ctx.detectObjects, {
    generatePrompt: request.generatePrompt,
    analysisType: request.analysisType,
    retryDelayMs: ctx.aiRetryDelayMs,
  });
  await recordResult(ctx, userId, 'image_suggestion', analysis.suggestedPrompt, false);
  return analysis;
}

/** How long an AI result can be used for a generation (as long as an upload lives). */
export const AI_RESULT_VALID_MS = 24 * 60 * 60 * 1000;

/** The results a generation's claim is checked against (a user makes far fewer in a day's use). */
const RECENT_RESULTS = 200;

/**
 * Whether a generation's prompt is this AI text: the text itself, or the text with the audio
 * description the generator appends (composePrompt in shared/generations.ts).
 */
export function promptUsesText(prompt: string, text: string): boolean {
  const sent = prompt.trim();
  return sent === text || sent.startsWith(`${text}${AUDIO_DESCRIPTION_SEPARATOR}`);
}

async function recordResult(
  ctx: ServiceContext,
  userId: string,
  kind: 'enhanced_prompt' | 'image_suggestion',
  text: string,
  fromSuggestion: boolean,
) {
  if (!text.trim()) return;
  await results.insertAiResult(ctx.db, { userId, kind, text: text.trim(), fromSuggestion });
}

/**
 * Decision 012: a generation that says it used AI prompt enhancement or image analysis is charged
 * for it only when its description is a text the server produced for this user in the last 24
 * hours: an enhanced prompt, or an analysis's suggested prompt (or an enhanced prompt made from
 * one, which uses both). A claim the server cannot verify is a 400, never a silent price change.
 */
export async function verifyAiUse(
  ctx: ServiceContext,
  userId: string,
  prompt: string,
  claims: { usedPromptEnhancement: boolean; usedImageAnalysis: boolean },
): Promise<{ promptEnhancement: boolean; imageAnalysis: boolean }> {
  if (!claims.usedPromptEnhancement && !claims.usedImageAnalysis)
    return { promptEnhancement: false, imageAnalysis: false };
  const since = new Date(ctx.now().getTime() - AI_RESULT_VALID_MS);
  const rows = (await results.recentAiResults(ctx.db, userId, since, RECENT_RESULTS)).filter((row) =>
    promptUsesText(prompt, row.text),
  );
  const enhanced = rows.filter((row) => row.kind === 'enhanced_prompt');
  if (claims.usedPromptEnhancement && enhanced.length === 0) {
    throw badRequest(
      'This description is not an enhanced prompt made for you. Enhance it again, or turn AI Enhance off.',
      'enhancement_not_found',
    );
  }
  const suggestion = claims.usedPromptEnhancement
    ? enhanced.some((row) => row.fromSuggestion)
    : rows.some((row) => row.kind === 'image_suggestion');
  if (claims.usedImageAnalysis && !suggestion) {
    throw badRequest(
      "This description is not the image analysis's suggested prompt. Use the suggestion, or upload the image again.",
      'analysis_not_found',
    );
  }
  return { promptEnhancement: claims.usedPromptEnhancement, imageAnalysis: claims.usedImageAnalysis };
}

/** Forgets AI results too old to be used (the retention sweeper). */
export function sweepOldAiResults(ctx: ServiceContext): Promise<number> {
  return results.deleteAiResultsBefore(ctx.db, new Date(ctx.now().getTime() - AI_RESULT_VALID_MS));
}
