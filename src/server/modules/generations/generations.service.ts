import { randomUUID } from 'node:crypto';
import { toCredits } from '../../../shared/money/credits';
import type { z } from 'zod';
import {
  type createGenerationSchema,
  type GenerationJob,
  type GenerationRecord,
  MAX_UNFINISHED_JOBS,
  nearestDuration,
  parseAdvancedSettings,
  PROMPT_REQUIRED_MESSAGE,
} from '../../../shared/generations';
import { priceHundredths } from '../../../shared/money/pricing';
import type { UploadKind } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import type { GenerationInputs, GenerationRow } from '../../db/schema';
import { mediaUrl } from '../../storage/media-links';
import { badRequest, notFound, tooManyRequests } from '../../lib/app-error';
import { publishGenerationChange, publishQueueMoved } from '../events/live-events.service';
import { payForGeneration } from '../money/charge-generation.service';
import { discardUploads, resolveUploadRef } from '../uploads/uploads.service';
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
      throw badRequest(`${field} must be an ${kind} file; that upload is ${upload.kind === 'image' ? 'an' : 'a'} ${upload.kind}.`, 'wrong_input_kind');
    }
    inputs[kind] = { uploadId: upload.id, objectKey: upload.objectKey, contentType: upload.contentType };
  }
  return inputs;
}

/**
 * Starts a generation from a body the route has parsed: checks what the schema cannot, prices on
 * the server and, in one transaction under the user's row lock, checks the unfinished-jobs limit,
 * inserts the job and charges for it. The worker picks the job up from the table.
 */
export async function createGeneration(ctx: ServiceContext, userId: string, body: GenerationRequest): Promise<GenerationRow> {
  const prompt = body.prompt.trim();
  if (!prompt) throw badRequest(PROMPT_REQUIRED_MESSAGE, 'prompt_required');
  const settings = parseAdvancedSettings(body.jsonPrompt);
  if (!settings.ok) throw badRequest(settings.message, 'invalid_advanced_settings');
  const model = body.model ?? ctx.engines.defaultModel;
  const engineInfo = ctx.engines.list().find((m) => m.id === model);
  if (!ctx.engines.get(model)) throw badRequest(engineInfo?.reason ?? 'This model is not available.', 'model_unavailable');
  const inputs = await resolveInputs(ctx, userId, body);
  const hasAudio = body.hasAudio;

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
    const price = priceHundredths({
      userPlan: payer.plan,
      duration: body.duration,
      model,
      hasAudio,
      isEconomy: body.isEconomy,
      hasPromptEnhancement: false,
      hasImageAnalysis: false,
      hasGeminiOptimization: false,
      batchSize: 1,
    }).total;
    const row = await repo.insertGeneration(tx, {
      userId,
      prompt,
      model,
      requestedDuration: nearestDuration(model, body.duration),
      hasAudio,
      isEconomy: body.isEconomy,
      settings: settings.settings,
      inputs,
      progressStage: 'Waiting in queue',
    });
    const paid = await payForGeneration(tx, payer, { userId, generationId: row.id, priceHundredths: price, now: ctx.now() });
    await repo.setPayment(tx, row.id, paid);
    await publishGenerationChange(tx, userId, row.id);
    return { ...row, creditsUsedHundredths: paid.creditsHundredths, paidWith: paid.paidWith };
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
  return rows.map((row) => ({ ...presentRecord(ctx.secret, row, now), ...estimateFor(row, positions.get(row.id) ?? null, stats, now) }));
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
  const uploadIds = Object.values(row.inputs).map((input) => input.uploadId);
  await discardUploads(ctx, userId, uploadIds);
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
    startedAt: row.startedAt?.toISOString() ?? null,
    queuePosition: null,
    estimatedStartAt: null,
    estimatedReadyAt: null,
  };
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
  };
}
