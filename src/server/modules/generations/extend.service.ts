import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { createGenerationSchema, type extendGenerationSchema } from '../../../shared/generations';
import { nearestOf } from '../../../shared/models';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import type { GenerationRow } from '../../db/schema';
import type { ProviderExtend } from '../../engines/catalogue';
import { ObjectNotFoundError } from '../../storage/storage';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { discardUploads } from '../uploads/uploads.service';
import { normaliseGenerationRequest } from './generation-request';
import { type CreatedGeneration, createGeneration } from './generations.service';
import * as repo from './generations.repository';
import { lastFrameUpload } from './last-frame.service';
import { userOutputsPrefix } from './lifecycle.service';
import { hasLiveOutput } from './output-life';

export type ExtendBody = z.output<typeof extendGenerationSchema>;

const videoNotFound = () =>
  notFound('This video was not found. It may have been deleted already.', 'generation_not_found');

/** Where the copy of the original's video waits for the worker (to join the continuation to, or to send to the provider). */
const baseKeyFor = (userId: string) => `${userOutputsPrefix(userId)}extend-base-${randomUUID()}.mp4`;

/**
 * Extend: a new generation that continues one of the user's finished videos into one longer video.
 * Through the provider's own extend call where the model has one and the original fits it
 * (`extendMethod`): the provider gets a copy of the original and answers the whole longer video.
 * Otherwise from its last frame (Continue's frame, as a new image upload of theirs), the rendered
 * continuation then joined to a copy of the original by the worker (src/server/jobs/extend-join.ts).
 * It is priced and paid as the continuation, through the one create path; its record names the
 * original (`parentId`). Nothing is left behind when it is refused (the frame and the copy are removed).
 */
export async function extendGeneration(
  ctx: ServiceContext,
  userId: string,
  id: string,
  body: ExtendBody,
): Promise<CreatedGeneration> {
  const original = await repo.findForUser(ctx.db, userId, id);
  if (!original) throw videoNotFound();
  if (original.status === 'failed')
    throw badRequest(
      'This video failed, so there is nothing to extend. Make it again, then extend it.',
      'not_extendable',
    );
  if (original.status !== 'completed')
    throw conflict('This video is not finished yet. Extend it once it is ready.', 'not_finished');
  if (!hasLiveOutput(original, ctx.now()))
    throw badRequest(
      `This video has expired (videos are kept for ${retentionInWords(ctx.config.retention.videoHours)}), so it can no longer be extended.`,
      'video_expired',
    );
  if (original.film)
    throw badRequest(
      'A film is joined from its shots by this server, so no model can continue it. Extend one of its shots, then make the film again.',
      'extend_not_supported',
    );
  const model = ctx.engines.info(original.model);
  if (model && !model.inputs.includes('image'))
    throw badRequest(
      `${model.name} cannot start from an image, so it cannot continue a video. Make it with another model to extend it.`,
      'extend_not_supported',
    );

  const continuationSeconds = body.duration ?? original.requestedDuration;
  const providerExtend = ctx.engines.providerExtend(original.model);
  const method = extendMethod(providerExtend, original, {
    crossfadeSeconds: body.crossfade,
    // The continuation as the model renders (and prices) it.
    continuationSeconds: model ? nearestOf(model.durations, continuationSeconds) : continuationSeconds,
    durations: model?.durations ?? [],
  });
  // The provider's extend call takes the video itself: no last frame is made for it.
  const frame = method === 'join' ? await lastFrameUpload(ctx, userId, id) : null;
  const baseKey = baseKeyFor(userId);
  try {
    // Deleted meanwhile (its owner, the sweep): a 404, before anything is charged.
    const originalVideo = await ctx.storage.read(original.outputKey).catch((error: unknown) => {
      throw error instanceof ObjectNotFoundError ? videoNotFound() : error;
    });
    await ctx.storage.put(baseKey, originalVideo, 'video/mp4');
    const { seed: _seed, ...settings } = original.settings;
    const request = normaliseGenerationRequest(
      createGenerationSchema.parse({
        description: body.prompt ?? original.prompt,
        settings,
        ...(frame ? { imageFile: frame.objectPath } : {}),
        hasAudio: original.hasAudio,
        isEconomy: original.isEconomy,
        duration: body.duration ?? original.requestedDuration,
        model: original.model,
      }),
    );
    return await createGeneration(ctx, userId, request, {
      parentId: original.id,
      extension: {
        baseKey,
        crossfadeSeconds: body.crossfade,
        method,
        // The provider's call names the original by its own id of it: the worker reads it from this task.
        ...(method === 'provider' && providerExtend?.madeBy && original.providerTaskId
          ? { originalTask: original.providerTaskId }
          : {}),
      },
    });
  } catch (error) {
    await ctx.storage.delete(baseKey).catch(() => undefined);
    if (frame) await discardUploads(ctx, userId, [frame.objectPath.split('/').at(-1) ?? '']).catch(() => undefined);
    throw error;
  }
}

/** A measured length a few hundredths over the rendered one (an 8 s render probes as 8.02 s) is still that length. */
const LENGTH_TOLERANCE_SECONDS = 0.1;

/**
 * Which way an Extend is made: through the provider's own extend call when the model has one, the
 * original is within its documented limits (length, resolution, shape, as its record states them), no
 * crossfade was asked for (the provider's call joins without one) and the continuation asked for is
 * the model's length nearest to what the call adds (Veo 3.1 adds 7 s: an 8 s continuation, priced as
 * such; Kling adds 4-5 s: a 5 s one); otherwise from the last frame, joined by the worker. A record
 * that does not state its shape goes the join way, and so does one the provider did not make whole
 * when its call names the original by the provider's own id (`madeBy`, Kling's `video_id`).
 */
export function extendMethod(
  extend: ProviderExtend | null,
  original: Pick<GenerationRow, 'outputDuration' | 'requestedDuration' | 'settings' | 'providerTaskId' | 'extension'>,
  asked: { crossfadeSeconds: number; continuationSeconds: number; durations: readonly number[] },
): 'provider' | 'join' {
  if (!extend || asked.crossfadeSeconds > 0) return 'join';
  if (nearestOf(asked.durations, extend.addsSeconds) !== asked.continuationSeconds) return 'join';
  if (extend.madeBy && !isMadeWholeBy(extend.madeBy, original)) return 'join';
  const length = original.outputDuration ?? original.requestedDuration;
  const { resolution, aspectRatio } = original.settings;
  const within =
    length <= extend.maxInputSeconds + LENGTH_TOLERANCE_SECONDS &&
    resolution !== undefined &&
    extend.resolutions.includes(resolution) &&
    aspectRatio !== undefined &&
    extend.aspectRatios.includes(aspectRatio);
  return within ? 'provider' : 'join';
}

/**
 * Whether the provider's own video is the original as stored: its saved task (`<endpoint>:<id>`) is
 * one of these endpoints', and it was not joined here (a joined Extend's task made only its continuation).
 */
function isMadeWholeBy(
  endpoints: readonly string[],
  original: Pick<GenerationRow, 'providerTaskId' | 'extension'>,
): boolean {
  const [endpoint = '', taskId] = original.providerTaskId?.split(':') ?? [];
  const joined = original.extension !== null && original.extension.method !== 'provider';
  return Boolean(taskId) && endpoints.includes(endpoint) && !joined;
}
