import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  FINISH_ACTION_LABELS,
  FINISH_ACTION_VERBS,
  type FinishBody,
  type FinishingTool,
  finishPriceHundredths,
  finishRefusal,
} from '../../../shared/finishing';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import type { GenerationFinish, GenerationRow } from '../../db/schema';
import { chooseFinishingTool } from '../../engines/finishing';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { probeMedia } from '../../media/ffmpeg';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { ObjectNotFoundError } from '../../storage/storage';
import { payForGeneration } from '../money/charge-generation.service';
import { effectiveSpendCap } from '../../../shared/money/spend-cap';
import { facesInVideo, refuseBlockedPrompt } from '../moderation/moderation.service';
import { resolveUploadRef } from '../uploads/uploads.service';
import { type CreatedGeneration, requireRoomForAnotherJob } from './generations.service';
import * as repo from './generations.repository';
import { userOutputsPrefix } from './lifecycle.service';
import { hasLiveOutput } from './output-life';

/** Where the copies a finishing job works on wait for the worker. */
const copyKeyFor = (userId: string, name: string) => `${userOutputsPrefix(userId)}finish-${name}-${randomUUID()}`;

const videoNotFound = () =>
  notFound('This video was not found. It may have been deleted already.', 'generation_not_found');

/** What the checks read of the original's file: its length, its short side and frame rate, whether it has sound. */
interface SourceFacts {
  seconds: number;
  shortSide: number | null;
  fps: number | null;
  hasAudio: boolean;
}

/**
 * A finishing action (issue 48) on one of the user's finished videos: a new video whose parent is
 * the original, made by the worker from copies (src/server/jobs/finish-video.ts), priced by the
 * tool (per video or per second of the original) and paid like a generation, in one transaction
 * under the user's row lock. Everything is checked before anything is charged: the original (theirs,
 * finished, stored), the tool (this server has it, it takes this length, size and frame rate), the
 * recording and the words. Nothing is left behind when it is refused.
 */
export async function finishVideo(
  ctx: ServiceContext,
  userId: string,
  id: string,
  body: FinishBody,
  log?: FastifyBaseLogger,
): Promise<CreatedGeneration> {
  const original = await finishableVideo(ctx, userId, id);
  const label = FINISH_ACTION_LABELS[body.action];
  const workDir = await makeWorkDir('finishCheck');
  const copies: string[] = [];
  try {
    const file = path.join(workDir, 'original.mp4');
    await pipeline(
      await ctx.storage.read(original.outputKey).catch((error: unknown) => {
        throw error instanceof ObjectNotFoundError ? videoNotFound() : error;
      }),
      createWriteStream(file),
    );
    const facts = await sourceFacts(ctx, file, original);
    const tool = toolFor(ctx.engines.finishing(), body, facts);
    const refusal = finishRefusal(tool, body, facts);
    if (refusal) throw badRequest(refusal.message, refusal.code);
    // A mouth to move: a video showing no face is refused here, before the charge (where the detector runs).
    if (tool.needsFace && (await facesInVideo(ctx, file, facts.seconds)) === 0)
      throw badRequest(
        'This video shows no face, so there is no mouth to lip-sync. Choose a video where a face is seen clearly.',
        'no_face',
      );
    const prompt = 'prompt' in body ? body.prompt : undefined;
    if (prompt) await refuseBlockedPrompt(ctx, [prompt], log);
    const recording =
      'audioFile' in body && body.audioFile ? await resolveUploadRef(ctx, userId, body.audioFile) : null;
    if (recording?.kind === 'image')
      throw badRequest(
        'audioFile must be a recording (or a video with sound); that upload is an image.',
        'wrong_input_kind',
      );
    const picture = 'imageFile' in body && body.imageFile ? await resolveUploadRef(ctx, userId, body.imageFile) : null;
    if (picture && picture.kind !== 'image')
      throw badRequest('imageFile must be a picture; that upload is not an image.', 'wrong_input_kind');

    const copy = async (key: string, to: string, contentType: string) => {
      const bytes = await ctx.storage.read(key).catch((error: unknown) => {
        throw error instanceof ObjectNotFoundError
          ? badRequest('That upload was deleted meanwhile. Upload it again.', 'invalid_upload')
          : error;
      });
      await ctx.storage.put(to, bytes, contentType);
      copies.push(to);
      return { key: to, contentType };
    };
    const sourceKey = copyKeyFor(userId, 'source.mp4');
    await ctx.storage.put(sourceKey, createReadStream(file), 'video/mp4');
    copies.push(sourceKey);
    const finish: GenerationFinish = {
      action: body.action,
      tool: tool.id,
      // A finished video's own creator is its original's (a chain of finishing keeps the first model).
      sourceModel: original.finish?.sourceModel ?? original.model,
      sourceKey,
      sourceSeconds: facts.seconds,
      sourceHasAudio: facts.hasAudio,
      ...(recording
        ? { audio: await copy(recording.objectKey, copyKeyFor(userId, 'audio'), recording.contentType) }
        : {}),
      ...(picture ? { image: await copy(picture.objectKey, copyKeyFor(userId, 'image'), picture.contentType) } : {}),
      ...(body.action === 'upscale' && body.resolution ? { resolution: body.resolution } : {}),
      ...(body.action === 'upscale' && body.fps ? { fps: body.fps } : {}),
      ...(prompt ? { prompt } : {}),
    };
    const priceHundredths = finishPriceHundredths(tool, facts.seconds);
    return await ctx.db.transaction(async (tx) => {
      const locked = await repo.lockPayer(tx, userId);
      if (!locked) throw notFound('User not found', 'user_not_found');
      const { unfinished, hasPackGenerations, waiting } = await repo.unfinishedAndPacks(tx, userId, ctx.now());
      requireRoomForAnotherJob(unfinished);
      const generationId = randomUUID();
      const paid = await payForGeneration(
        tx,
        { ...locked, hasPackGenerations },
        { userId, generationId, now: ctx.now() },
        {
          hundredths: priceHundredths,
          reason: `${label} (${tool.name})`,
          spendCapHundredths: effectiveSpendCap(
            locked.dailySpendCapHundredths,
            ctx.config.operations.dailySpendCapHundredths,
          ),
        },
      );
      const row = await repo.insertPaidGeneration(
        tx,
        {
          id: generationId,
          userId,
          prompt: original.prompt,
          model: tool.id,
          requestedDuration: Math.max(1, Math.round(facts.seconds)),
          hasAudio: body.action === 'add-sound' || body.action === 'lip-sync' || facts.hasAudio,
          isEconomy: false,
          settings: finishedSettings(original, body),
          inputs: {},
          endImage: null,
          referenceImages: [],
          progressStage: 'Waiting in queue',
          creditsUsedHundredths: paid.creditsHundredths,
          providerCostMicroUsd: null,
          paidWith: paid.paidWith,
          parentId: original.id,
          groupId: null,
          extension: null,
          // The people the original shows were consented to when it was made; the finished video carries it.
          consent: original.consent,
          heldForReview: null,
          finish,
        },
        { charge: paid.charge, eventKind: paid.balanceChanged ? 'balance' : 'generation' },
      );
      return { row, queuePosition: waiting + 1, group: [row] };
    });
  } catch (error) {
    await Promise.all(copies.map((key) => ctx.storage.delete(key).catch(() => undefined)));
    throw error;
  } finally {
    await removeWorkDir(workDir);
  }
}

/** The new video's shape: the original's, at the upscale's resolution where the generator has it (2160p is in `finish`). */
function finishedSettings(original: GenerationRow, body: FinishBody): GenerationRow['settings'] {
  const { aspectRatio, resolution } = original.settings;
  const upscaledTo = body.action === 'upscale' ? body.resolution : undefined;
  const shown = upscaledTo ? (upscaledTo === '1080p' ? upscaledTo : undefined) : resolution;
  return { ...(aspectRatio ? { aspectRatio } : {}), ...(shown ? { resolution: shown } : {}) };
}

/** One of the user's videos a finishing action can start from: finished, shown and still stored. */
async function finishableVideo(
  ctx: ServiceContext,
  userId: string,
  id: string,
): Promise<GenerationRow & { outputKey: string }> {
  const original = await repo.findForUser(ctx.db, userId, id);
  if (!original) throw videoNotFound();
  if (original.status === 'failed')
    throw badRequest(
      'This video failed, so there is nothing to finish. Make it again, then finish it.',
      'not_finishable',
    );
  if (original.status !== 'completed')
    throw conflict('This video is not finished yet. Finish it once it is ready.', 'not_finished');
  if (original.heldForReview)
    throw conflict('This video is waiting for a review. Finish it once it is shown.', 'held_for_review');
  if (!hasLiveOutput(original, ctx.now()))
    throw badRequest(
      `This video has expired (videos are kept for ${retentionInWords(ctx.config.retention.videoHours)}), so it can no longer be finished.`,
      'video_expired',
    );
  return original;
}

/** The original's file as the checks read it (ffprobe), its record's length where the file states none. */
async function sourceFacts(ctx: ServiceContext, file: string, original: GenerationRow): Promise<SourceFacts> {
  const info = await probeMedia(ctx.media.ffprobe, file, { watchdog: ctx.media.watchdog });
  if (!info.video) throw badRequest('This video’s file has no picture, so it cannot be finished.', 'not_finishable');
  return {
    seconds: info.durationSeconds || original.outputDuration || original.requestedDuration,
    shortSide: Math.min(info.video.width, info.video.height),
    fps: info.video.frameRate,
    hasAudio: info.audio !== null,
  };
}

/** The tool the request names, else the first of this server's for the action that fits; refused with a sentence. */
function toolFor(tools: readonly FinishingTool[], body: FinishBody, facts: SourceFacts): FinishingTool {
  const tool = chooseFinishingTool(
    tools,
    body.action,
    body.tool,
    (candidate) => !finishRefusal(candidate, body, facts),
  );
  const label = FINISH_ACTION_VERBS[body.action];
  if (!tool && body.tool)
    throw badRequest(
      `This server has no finishing tool called "${body.tool}". GET /api/finishing lists them.`,
      'unknown_finishing_tool',
    );
  if (!tool) throw badRequest(`This server cannot ${label} videos: none of its tools does.`, 'finish_not_available');
  if (tool.action !== body.action)
    throw badRequest(`${tool.name} does not ${label}; choose a tool that does.`, 'finish_not_supported');
  if (!tool.available) throw badRequest(tool.reason ?? `${tool.name} is not available.`, 'finish_not_available');
  return tool;
}
