import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UploadComplete } from '../../../shared/uploads';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import { badRequest, notFound } from '../../lib/app-error';
import { extractLastFrame } from '../../media/last-frame';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { storeServerImage } from '../uploads/uploads.service';
import * as repo from './generations.repository';
import { hasLiveOutput } from './output-life';

/**
 * Continue: the last frame of one of the user's finished videos, extracted with FFmpeg, stored as
 * a new image upload of theirs (kept VIDEO_RETENTION_HOURS), to start a new generation from.
 */
export async function lastFrameUpload(ctx: ServiceContext, userId: string, id: string): Promise<UploadComplete> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw notFound('This video was not found. It may have been deleted already.', 'generation_not_found');
  if (!hasLiveOutput(row, ctx.now())) {
    throw badRequest(
      `This video has no finished file to continue from (it may have expired after ${retentionInWords(ctx.config.retention.videoHours)}).`,
      'no_output',
    );
  }
  const dir = await makeWorkDir('job');
  try {
    const video = path.join(dir, 'video.mp4');
    const png = path.join(dir, 'last-frame.png');
    await pipeline(await ctx.storage.read(row.outputKey), createWriteStream(video));
    await extractLastFrame(ctx.media, video, png).catch(() => {
      throw badRequest('Could not take the last frame of this video.', 'last_frame_failed');
    });
    return await storeServerImage(ctx, userId, createReadStream(png), 'image/png');
  } finally {
    await removeWorkDir(dir);
  }
}
