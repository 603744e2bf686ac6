import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { toCredits } from '../../../shared/money/credits';
import { RETENTION_MS } from '../../../shared/retention';
import type { z } from 'zod';
import {
  type createGenerationSchema,
  type GenerationJob,
  type GenerationRecord,
  type AdvancedSettings,
  MAX_UNFINISHED_JOBS,
  parseAdvancedSettings,
  PROMPT_REQUIRED_MESSAGE,
} from '../../../shared/generations';
import { type ModelInfo, nearestOf } from '../../../shared/models';
import { priceHundredths } from '../../../shared/money/pricing';
import type { UploadComplete, UploadKind } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import type { GenerationInputs, GenerationRow } from '../../db/schema';
import { extractLastFrame } from '../../media/last-frame';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { mediaUrl } from '../../storage/media-links';
import { badRequest, notFound, tooManyRequests } from '../../lib/app-error';
import { publishGenerationChange, publishQueueMoved } from '../events/live-events.service';
import { payForGeneration } from '../money/charge-generation.service';
import { verifyAiUse } from '../prompts/prompts.service';
import { discardUploads, objectPathOf, resolveUploadRef, storeServerImage } from '../uploads/uploads.service';
import * as repo from './generations.repository';
import { estimateFor, queueStats } from './queue-estimates';

/** Lists show at most this many generations (videos live 24 hours, so this is plenty). */
const LIST_LIMIT = 200;
export const RECENT_LIMIT = 3;

/** Every generated file of a user lives under this prefix. */
export const userOutputsPrefix = (userId: string) => `outputs/${userId}/`;
/** A fresh key per attempt, so a worker that lost its lease can never overwrite or delete the winner's file. */
export const outputKeyFor = (userId: string, id: string, extension: 'mp4' | 'jpg') =>
  `${userOutputsPrefix(userId)}${id}-${randomUUID().slice(0, 8)}.${extension}`;

/** A generate request as the route's schema parsed it (defaults applied). */
type GenerationRequest = z.output<typeof createGenerationSchema>;

const INPUT_FIELDS: [UploadKind, 'imageFile' | 'videoFile' | 'audioFile'][] = [
  ['image', 'imageFile'],
  ['video', 'videoFile'],
  ['audio', 'audioFile'],
];

async function resolveInputs(ctx: ServiceContext, userId: string, body: GenerationRequest) {
  const inputs: GenerationInputs = {};
  for (const [kind, field] of INPUT_FIELDS) {
    const ref = body[field];
    if (!ref) continue;
    const upload = await resolveUploadRef(ctx, userId, ref);
    if (upload.kind !== kind) {
      throw badRequest(
        `${field} must be an ${kind} file; that upload is ${upload.kind === 'image' ? 'an' : 'a'} ${upload.kind}.`,
        'wrong_input_kind',
      );
    }
    inputs[kind] = {
      uploadId: upload.id,
      objectKey: upload.objectKey,
      contentType: upload.contentType,
      expiresAt: upload.expiresAt.toISOString(),
    };
  }
  return inputs;
}

const INPUT_WORDS: Record<UploadKind, string> = { image: 'an image', video: 'a video', audio: 'an audio track' };

/** The model a request names (or the default), refused with a sentence when this server cannot run it. */
function modelFor(ctx: ServiceContext, requested: string | undefined): ModelInfo {
  const info = ctx.engines.info(requested ?? ctx.engines.defaultModel);
  if (!info)
    throw badRequest(
      `This server has no model called "${requested ?? ''}". Choose one of the models the generator lists.`,
      'unknown_model',
    );
  if (!info.available || !ctx.engines.get(info.id))
    throw badRequest(info.reason ?? 'This model is not available.', 'model_unavailable');
  return info;
}

/** Refuses inputs and settings the model cannot take, each with a sentence saying so. */
function checkModelTakes(model: ModelInfo, body: GenerationRequest, settings: AdvancedSettings): void {
  for (const [kind, field] of INPUT_FIELDS) {
    if (body[field] && !model.inputs.includes(kind)) {
      throw badRequest(
        `${model.name} cannot take ${INPUT_WORDS[kind]}. Remove it, or choose a model that takes one.`,
        'input_not_supported',
      );
    }
  }
  if (settings.aspectRatio && !model.aspectRatios.includes(settings.aspectRatio)) {
    throw badRequest(
      `${model.name} makes ${model.aspectRatios.join(', ')} videos, not ${settings.aspectRatio}.`,
      'aspect_ratio_not_supported',
    );
  }
  if (settings.resolution && !model.resolutions.includes(settings.resolution)) {
    throw badRequest(
      `${model.name} renders ${model.resolutions.join(', ')}, not ${settings.resolution}.`,
      'resolution_not_supported',
    );
  }
}

/**
 * Starts a generation from a body the route has parsed: checks what the schema cannot, prices on
 * the server and, in one transaction under the user's row lock, checks the unfinished-jobs limit,
 * inserts the job and charges for it. The worker picks the job up from the table.
 */
export async function createGeneration(
  ctx: ServiceContext,
  userId: string,
  body: GenerationRequest,
): Promise<GenerationRow> {
  const prompt = body.prompt.trim();
  if (!prompt) throw badRequest(PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  const settings = parseAdvancedSettings(body.jsonPrompt);
  if (!settings.ok) throw badRequest(settings.message, 'invalid_advanced_settings');
  const modelInfo = modelFor(ctx, body.model);
  const model = modelInfo.id;
  checkModelTakes(modelInfo, body, settings.settings);
  const modelPrice = ctx.engines.price(model);
  const inputs = await resolveInputs(ctx, userId, body);
  const hasAudio = body.hasAudio;
  // Enhancement and analysis are charged when the description is their result (decision 012).
  const used = await verifyAiUse(ctx, userId, prompt, {
    usedPromptEnhancement: body.usedPromptEnhancement,
    usedImageAnalysis: body.usedImageAnalysis,
  });

  return ctx.db.transaction(async (tx) => {
    const payer = await repo.lockPayer(tx, userId);
    if (!payer) throw notFound('User not found', 'user_not_found');
    if ((await repo.countUnfinished(tx, userId)) >= MAX_UNFINISHED_JOBS) {
      throw tooManyRequests(
        `You already have ${MAX_UNFINISHED_JOBS} videos in progress. Wait for one to finish, then try again.`,
        30,
        'too_many_unfinished_jobs',
      );
    }
    const price = priceHundredths(
      {
        userPlan: payer.plan,
        duration: body.duration,
        model,
        hasAudio,
        isEconomy: body.isEconomy,
        hasPromptEnhancement: used.promptEnhancement,
        hasImageAnalysis: used.imageAnalysis,
        hasGeminiOptimization: false,
        batchSize: 1,
      },
      modelPrice,
    ).total;
    const row = await repo.insertGeneration(tx, {
      userId,
      prompt,
      model,
      requestedDuration: nearestOf(modelInfo.durations, body.duration),
      hasAudio,
      isEconomy: body.isEconomy,
      settings: settings.settings,
      inputs,
      progressStage: 'Waiting in queue',
    });
    // The ledger row names what was priced, so the charge can be read against the estimate.
    const parts = [
      body.isEconomy ? 'economy' : null,
      hasAudio ? 'audio' : null,
      used.promptEnhancement ? 'AI prompt enhancement' : null,
      used.imageAnalysis ? 'image analysis' : null,
    ].filter(Boolean);
    const reason = parts.length > 0 ? `Video generation (${parts.join(', ')})` : 'Video generation';
    const paid = await payForGeneration(tx, payer, {
      userId,
      generationId: row.id,
      priceHundredths: price,
      now: ctx.now(),
      reason,
    });
    const paidRow = await repo.setPayment(tx, row.id, paid);
    await publishGenerationChange(tx, userId, row.id);
    return paidRow;
  });
}

/** One of the user's generations; null when it is not theirs or is gone. */
export function findGeneration(ctx: ServiceContext, userId: string, id: string): Promise<GenerationRow | null> {
  return repo.findForUser(ctx.db, userId, id);
}

/**
 * Records as the list presents them, with queue places and estimates for unfinished ones (one
 * query for the places, only when some wait; the durations are cached a few seconds).
 */
export async function presentRecords(ctx: ServiceContext, rows: GenerationRow[]): Promise<GenerationRecord[]> {
  const now = ctx.now();
  const unfinished = rows.filter((row) => row.status === 'pending' || row.status === 'processing');
  if (unfinished.length === 0) return rows.map((row) => presentRecord(ctx.secret, row, now));
  const waiting = unfinished.filter((row) => row.status === 'pending').map((row) => row.id);
  const [positions, stats] = await Promise.all([repo.queuePositions(ctx.db, waiting), queueStats(ctx)]);
  return rows.map((row) => ({
    ...presentRecord(ctx.secret, row, now),
    ...estimateFor(row, positions.get(row.id) ?? null, stats, now),
  }));
}

export function listGenerations(ctx: ServiceContext, userId: string, limit = LIST_LIMIT): Promise<GenerationRow[]> {
  return repo.listForUser(ctx.db, userId, limit);
}

/**
 * Deletes one of the user's generations with its output and inputs. A running job notices at its
 * next heartbeat (its row is gone) and stops its engine. Anyone else's id is a 404.
 */
export async function deleteGeneration(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const deleted = await repo.deleteForUser(tx, userId, id);
    if (deleted) await publishGenerationChange(tx, userId, id);
    return deleted;
  });
  if (!row) throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
  if (row.status === 'pending') await publishQueueMoved(ctx);
  for (const key of [row.outputKey, row.posterKey]) if (key) await ctx.storage.delete(key);
  // A remix reuses its original's inputs: those still named by another generation stay.
  const uploadIds = Object.values(row.inputs).map((input) => input.uploadId);
  const stillUsed = await repo.uploadsStillUsed(ctx.db, userId, uploadIds);
  await discardUploads(
    ctx,
    userId,
    uploadIds.filter((id) => !stillUsed.has(id)),
  );
}

/**
 * Continue: the last frame of one of the user's finished videos, extracted with FFmpeg, stored as
 * a new image upload of theirs (24 hours), to start a new generation from.
 */
export async function lastFrameUpload(ctx: ServiceContext, userId: string, id: string): Promise<UploadComplete> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
  if (row.status !== 'completed' || !row.outputKey || !row.expiresAt || row.expiresAt <= ctx.now()) {
    throw badRequest(
      'This video has no finished file to continue from (it may have expired after 24 hours).',
      'no_output',
    );
  }
  const dir = await makeWorkDir('job');
  try {
    const video = path.join(dir, 'video.mp4');
    const png = path.join(dir, 'last-frame.png');
    await pipeline(await ctx.storage.read(row.outputKey), createWriteStream(video));
    await extractLastFrame(ctx.engines.binaries, video, png).catch(() => {
      throw badRequest('Could not take the last frame of this video.', 'last_frame_failed');
    });
    return await storeServerImage(ctx, userId, createReadStream(png), 'image/png');
  } finally {
    await removeWorkDir(dir);
  }
}

/** Deletes outputs past their 24 hours; the record stays, without a video. */
export async function sweepExpiredOutputs(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await repo.findExpiredOutputs(ctx.db, ctx.now(), 200);
    for (const row of batch) {
      for (const key of [row.outputKey, row.posterKey]) if (key) await ctx.storage.delete(key);
      await ctx.db.transaction(async (tx) => {
        await repo.clearOutput(tx, row.id);
        await publishGenerationChange(tx, row.userId, row.id);
      });
    }
    removed += batch.length;
    if (batch.length < 200) return removed;
  }
}

/**
 * Deletes generation records older than GENERATION_RECORD_RETENTION_DAYS (finished ones: a job
 * still running is left to finish), with any file or input they still hold. Answers how many.
 */
export async function sweepOldRecords(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.now().getTime() - ctx.config.generationRecordRetentionDays * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await repo.findOldRecords(ctx.db, before, 200);
    for (const found of batch) {
      // Announced like a user's own deletion: open tabs drop it, and the lists' ETags move.
      const row = await ctx.db.transaction(async (tx) => {
        const deleted = await repo.deleteById(tx, found.id);
        if (deleted) await publishGenerationChange(tx, deleted.userId, deleted.id);
        return deleted;
      });
      if (!row) continue;
      for (const key of [row.outputKey, row.posterKey]) if (key) await ctx.storage.delete(key);
      await discardUploads(
        ctx,
        row.userId,
        Object.values(row.inputs).map((input) => input.uploadId),
      );
      removed += 1;
    }
    if (batch.length < 200) return removed;
  }
}

/** Deletes every generated file of a user (their account is being deleted). */
export async function deleteUserOutputs(ctx: ServiceContext, userId: string): Promise<void> {
  await ctx.storage.deletePrefix(userOutputsPrefix(userId));
}

function linksFor(secret: string, row: GenerationRow, now: Date) {
  const live = row.expiresAt && row.expiresAt > now;
  const link = (key: string | null, contentType: string) =>
    key && live && row.expiresAt ? mediaUrl(secret, { key, contentType, expiresAt: row.expiresAt }) : null;
  return { video: link(row.outputKey, 'video/mp4'), poster: link(row.posterKey, 'image/jpeg') };
}

const shownDuration = (row: GenerationRow) =>
  row.outputDuration !== null ? Math.round(row.outputDuration * 10) / 10 : row.requestedDuration;

export function presentRecord(secret: string, row: GenerationRow, now: Date): GenerationRecord {
  const links = linksFor(secret, row, now);
  return {
    id: row.id,
    prompt: row.prompt,
    status: row.status,
    creditsUsed: toCredits(row.creditsUsedHundredths),
    duration: shownDuration(row),
    model: row.model,
    hasAudio: row.hasAudio,
    outputVideoUrl: links.video,
    posterUrl: links.poster,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    progress: row.progress,
    progressStage: row.progressStage,
    errorMessage: row.errorMessage,
    isEconomy: row.isEconomy,
    settings: row.settings,
    inputs: liveInputs(row, now),
    startedAt: row.startedAt?.toISOString() ?? null,
    queuePosition: null,
    estimatedStartAt: null,
    estimatedReadyAt: null,
    version: row.version,
  };
}

/** The object paths of a generation's inputs whose files still exist (Remix fills them in). */
function liveInputs(row: GenerationRow, now: Date): Partial<Record<UploadKind, string>> {
  const live: Partial<Record<UploadKind, string>> = {};
  const fallback = new Date(row.createdAt.getTime() + RETENTION_MS);
  for (const [kind, input] of Object.entries(row.inputs) as [UploadKind, GenerationInputs[UploadKind]][]) {
    if (!input) continue;
    const expires = input.expiresAt ? new Date(input.expiresAt) : fallback;
    if (expires > now) live[kind] = objectPathOf(row.userId, input.uploadId);
  }
  return live;
}

export function presentJob(secret: string, row: GenerationRow, now: Date): GenerationJob {
  return {
    id: row.id,
    textPrompt: row.prompt,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    creditsUsed: toCredits(row.creditsUsedHundredths),
    duration: shownDuration(row),
    hasAudio: row.hasAudio,
    progress: row.progress,
    errorMessage: row.errorMessage,
    outputVideoUrl: linksFor(secret, row, now).video,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    version: row.version,
  };
}

/** A Replicate webhook: true when its signature is Replicate's (the job waiting on it then looks at once). */
export async function receiveReplicateWebhook(
  ctx: ServiceContext,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
): Promise<boolean> {
  const hooks = ctx.engines.replicateWebhooks;
  return hooks ? hooks.deliver(headers, rawBody) : false;
}

/** A model's base price for the estimate (GET /api/models' credits), or a 400 for an id this server does not know. */
export function modelPriceFor(ctx: ServiceContext, model: string) {
  const price = ctx.engines.price(model);
  if (!price) throw badRequest(`This server has no model called "${model}".`, 'unknown_model');
  return price;
}
