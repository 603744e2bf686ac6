import { buffer } from 'node:stream/consumers';
import type { z } from 'zod';
import {
  type analyzeImageRequestSchema,
  ENHANCE_PROMPT_REQUIRED_MESSAGE,
  type enhanceTextRequestSchema,
  type ImageAnalysis,
  type PromptEnhancement,
} from '../../../shared/ai';
import type { AiResultIds } from '../../../shared/generations';
import { analyzeImage } from '../../ai/image-analyzer';
import { enhancePrompt } from '../../ai/prompt-enhancer';
import type { ServiceContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { refuseBlockedPrompt } from '../moderation/moderation.service';
import { resolveUploadRef } from '../uploads/uploads.service';
import type { AiResultKind } from '../../db/schema';
import * as results from './ai-results.repository';

/** What an AI helper produced, with the id a generation names to use it (null: no text to use). */
export interface Produced<T> {
  data: T;
  resultId: string | null;
}

/** Improves a description: the configured model (LLM_BASE_URL or Gemini), the local enhancer without. Blank: 400 prompt_required. */
export async function enhanceText(
  ctx: ServiceContext,
  userId: string,
  request: z.output<typeof enhanceTextRequestSchema>,
): Promise<Produced<PromptEnhancement>> {
  const userPrompt = request.userPrompt.trim();
  if (!userPrompt) throw badRequest(ENHANCE_PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  // The content policy before the model is asked, and on what it answers (issue 43).
  await refuseBlockedPrompt(ctx, [userPrompt, request.style, request.mood]);
  const enhancement = await enhancePrompt(ctx.config, { ...request, userPrompt }, { retryDelayMs: ctx.aiRetryDelayMs });
  await refuseBlockedPrompt(ctx, [enhancement.enhancedPrompt]);
  // For the older request shape only, which names no ids: enhancing an image analysis's suggestion
  // makes a text whose use uses both (this app's generator names both results instead).
  const since = new Date(ctx.now().getTime() - AI_RESULT_VALID_MS);
  const recent = await results.recentAiResults(ctx.db, userId, since, RECENT_RESULTS);
  const fromSuggestion = recent.some(
    (row) => row.text === userPrompt && (row.kind === 'image_suggestion' || row.fromSuggestion),
  );
  const resultId = await recordResult(ctx, userId, 'enhanced_prompt', enhancement.enhancedPrompt, fromSuggestion);
  return { data: enhancement, resultId };
}

/**
 * Analyses one of the caller's own completed image uploads (anything else: 400). The reference is
 * resolved to a stored object, so the server never fetches a URL it was given.
 */
export async function analyzeUpload(
  ctx: ServiceContext,
  userId: string,
  request: z.output<typeof analyzeImageRequestSchema>,
): Promise<Produced<ImageAnalysis>> {
  const upload = await resolveUploadRef(ctx, userId, request.imageUrl);
  if (upload.kind !== 'image') throw badRequest('Only an uploaded image can be analysed.', 'not_an_image');
  const bytes = await buffer(await ctx.storage.read(upload.objectKey));
  const analysis = await analyzeImage(ctx.config, { bytes, contentType: upload.contentType }, ctx.detectObjects, {
    generatePrompt: request.generatePrompt,
    analysisType: request.analysisType,
    retryDelayMs: ctx.aiRetryDelayMs,
  });
  const resultId = await recordResult(ctx, userId, 'image_suggestion', analysis.suggestedPrompt, false);
  return { data: analysis, resultId };
}

/** How long an AI result can be used for a generation (as long as an upload lives). */
export const AI_RESULT_VALID_MS = 24 * 60 * 60 * 1000;

/** The results a generation's claim is checked against (a user makes far fewer in a day's use). */
const RECENT_RESULTS = 200;

async function recordResult(
  ctx: ServiceContext,
  userId: string,
  kind: AiResultKind,
  text: string,
  fromSuggestion: boolean,
): Promise<string | null> {
  if (!text.trim()) return null;
  return results.insertAiResult(ctx.db, { userId, kind, text: text.trim(), fromSuggestion });
}

/** The add-ons a generation is charged for. */
export interface ChargedAiUse {
  promptEnhancement: boolean;
  imageAnalysis: boolean;
}

/**
 * What a generation request says it used of the AI helpers: the results' ids (this app's
 * generator), or, in the older request shape, two flags and the descriptions its prompt may hold
 * (the prompt itself, or the part before an appended audio description).
 */
export type AiUseClaim =
  | { by: 'ids'; ids: AiResultIds }
  | { by: 'text'; descriptions: string[]; usedPromptEnhancement: boolean; usedImageAnalysis: boolean };

/**
 * Which add-ons a generation is charged for (decisions 012 and 016). A claim the server cannot
 * verify is a 400, never a silent price change; nothing is charged for what is not claimed.
 */
export function chargeableAiUse(ctx: ServiceContext, userId: string, claim: AiUseClaim): Promise<ChargedAiUse> {
  return claim.by === 'ids' ? verifyAiResultIds(ctx, userId, claim.ids) : verifyAiUseByText(ctx, userId, claim);
}

const KIND_OF: Record<keyof AiResultIds, { kind: AiResultKind; words: string }> = {
  promptEnhancement: { kind: 'enhanced_prompt', words: 'an enhanced prompt' },
  imageAnalysis: { kind: 'image_suggestion', words: "an image analysis's suggested prompt" },
};

/**
 * Decision 016: naming a result is asking to be charged for it, once per generation that names it.
 * Each id must be a result of the user's own, of the kind its field says, made in the last 24 hours.
 * Unknown and someone else's ids get the same answer, so an id tells nothing about other users.
 */
async function verifyAiResultIds(ctx: ServiceContext, userId: string, ids: AiResultIds): Promise<ChargedAiUse> {
  const claimed = (Object.keys(KIND_OF) as (keyof AiResultIds)[]).flatMap((field) => {
    const id = ids[field];
    return id ? [{ field, id }] : [];
  });
  if (claimed.length === 0) return { promptEnhancement: false, imageAnalysis: false };
  const rows = await results.findAiResults(
    ctx.db,
    claimed.map((c) => c.id),
  );
  const since = ctx.now().getTime() - AI_RESULT_VALID_MS;
  for (const { field, id } of claimed) {
    const row = rows.find((r) => r.id === id && r.userId === userId);
    if (!row) {
      throw badRequest(
        `aiResultIds.${field} names no AI result of yours. Enhance or analyse again, or send the description without it.`,
        'ai_result_not_found',
      );
    }
    if (row.kind !== KIND_OF[field].kind)
      throw badRequest(`aiResultIds.${field} must name ${KIND_OF[field].words}.`, 'ai_result_wrong_kind');
    if (row.createdAt.getTime() <= since) {
      throw badRequest(
        `aiResultIds.${field} was made more than 24 hours ago and can no longer be used. Enhance or analyse again.`,
        'ai_result_expired',
      );
    }
  }
  return { promptEnhancement: Boolean(ids.promptEnhancement), imageAnalysis: Boolean(ids.imageAnalysis) };
}

/**
 * The older request shape (decision 012): a generation that says it used AI prompt enhancement or
 * image analysis is charged for it only when its description is a text the server produced for
 * this user in the last 24 hours: an enhanced prompt, or an analysis's suggested prompt (or an
 * enhanced prompt made from one, which uses both).
 */
async function verifyAiUseByText(
  ctx: ServiceContext,
  userId: string,
  claim: Extract<AiUseClaim, { by: 'text' }>,
): Promise<ChargedAiUse> {
  if (!claim.usedPromptEnhancement && !claim.usedImageAnalysis)
    return { promptEnhancement: false, imageAnalysis: false };
  const since = new Date(ctx.now().getTime() - AI_RESULT_VALID_MS);
  const rows = (await results.recentAiResults(ctx.db, userId, since, RECENT_RESULTS)).filter((row) =>
    claim.descriptions.includes(row.text),
  );
  const enhanced = rows.filter((row) => row.kind === 'enhanced_prompt');
  if (claim.usedPromptEnhancement && enhanced.length === 0) {
    throw badRequest(
      'This description is not an enhanced prompt made for you. Enhance it again, or turn AI Enhance off.',
      'enhancement_not_found',
    );
  }
  const suggestion = claim.usedPromptEnhancement
    ? enhanced.some((row) => row.fromSuggestion)
    : rows.some((row) => row.kind === 'image_suggestion');
  if (claim.usedImageAnalysis && !suggestion) {
    throw badRequest(
      "This description is not the image analysis's suggested prompt. Use the suggestion, or upload the image again.",
      'analysis_not_found',
    );
  }
  return { promptEnhancement: claim.usedPromptEnhancement, imageAnalysis: claim.usedImageAnalysis };
}

/** Forgets AI results too old to be used (the retention sweeper). */
export function sweepOldAiResults(ctx: ServiceContext): Promise<number> {
  return results.deleteAiResultsBefore(ctx.db, new Date(ctx.now().getTime() - AI_RESULT_VALID_MS));
}
