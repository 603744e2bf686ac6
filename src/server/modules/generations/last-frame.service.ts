import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UploadComplete } from '../../../shared/uploads';
import { retentionInWords } from '../../../shared/retention';
import type { ServiceContext } from '../../context';
import { badRequest, notFound } from '../../lib/app-error';
import { extractLastFrame } from '../../media/last-frame';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { ObjectNotFoundError } from '../../storage/storage';
import { storeServerImage } from '../uploads/uploads.service';
import * as repo from './generations.repository';
import { hasLiveOutput } from './output-life';

const videoNotFound = () =>
  notFound('This video was not found. It may have been deleted already.', 'generation_not_found');

/**
 * Continue: the last frame of one of the user's finished videos, extracted with FFmpeg, stored as
 * a new image upload of theirs (kept VIDEO_RETENTION_HOURS), to start a new generation from.
 */
export async function lastFrameUpload(ctx: ServiceContext, userId: string, id: string): Promise<UploadComplete> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw videoNotFound();
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
    // Deleted meanwhile (its owner, the sweep): a 404, and nothing is stored.
    const stored = await ctx.storage.read(row.outputKey).catch((error: unknown) => {
      throw error instanceof ObjectNotFoundError ? videoNotFound() : error;
    });
    await pipeline(stored, createWriteStream(video));
    await extractLastFrame(ctx.media, video, png).catch(() => {
      throw badRequest('Could not take the last frame of this video.', 'last_frame_failed');
    });
    return await storeServerImage(ctx, userId, createReadStream(png), 'image/png');
  } finally {
    await removeWorkDir(dir);
  }
}
