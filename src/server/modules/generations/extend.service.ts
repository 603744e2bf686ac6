import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { createGenerationSchema, type extendGenerationSchema } from '../../../shared/generations';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { discardUploads } from '../uploads/uploads.service';
import { normaliseGenerationRequest } from './generation-request';
import { type CreatedGeneration, createGeneration } from './generations.service';
import * as repo from './generations.repository';
import { lastFrameUpload } from './last-frame.service';
import { userOutputsPrefix } from './lifecycle.service';
import { hasLiveOutput } from './output-life';

export type ExtendBody = z.output<typeof extendGenerationSchema>;

/** Where the copy of the original's video waits for the worker to join the continuation to it. */
const baseKeyFor = (userId: string) => `${userOutputsPrefix(userId)}extend-base-${randomUUID()}.mp4`;

/**
 * Extend: a new generation that continues one of the user's finished videos from its last frame
 * (Continue's frame, as a new image upload of theirs) and, once rendered, is joined to a copy of the
 * original into one longer video by the worker (src/server/jobs/extend-join.ts). It is priced and
 * paid as the continuation, through the one create path; its record names the original (`parentId`).
 * Nothing is left behind when it is refused (the frame and the copy are removed).
 */
export async function extendGeneration(
  ctx: ServiceContext,
  userId: string,
  id: string,
  body: ExtendBody,
): Promise<CreatedGeneration> {
  const original = await repo.findForUser(ctx.db, userId, id);
  if (!original) throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
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
  const model = ctx.engines.info(original.model);
  if (model && !model.inputs.includes('image'))
    throw badRequest(
      `${model.name} cannot start from an image, so it cannot continue a video. Make it with another model to extend it.`,
      'extend_not_supported',
    );

  const frame = await lastFrameUpload(ctx, userId, id);
  const baseKey = baseKeyFor(userId);
  try {
    await ctx.storage.put(baseKey, await ctx.storage.read(original.outputKey), 'video/mp4');
    const { seed: _seed, ...settings } = original.settings;
    const request = normaliseGenerationRequest(
      createGenerationSchema.parse({
        description: body.prompt ?? original.prompt,
        settings,
        imageFile: frame.objectPath,
        hasAudio: original.hasAudio,
        isEconomy: original.isEconomy,
        duration: body.duration ?? original.requestedDuration,
        model: original.model,
      }),
    );
    return await createGeneration(ctx, userId, request, {
      parentId: original.id,
      extension: { baseKey, crossfadeSeconds: body.crossfade },
    });
  } catch (error) {
    await ctx.storage.delete(baseKey).catch(() => undefined);
    await discardUploads(ctx, userId, [frame.objectPath.split('/').at(-1) ?? '']).catch(() => undefined);
    throw error;
  }
}
