import { canKeepVideos, expiryFrom, retentionInWords } from '../../../shared/retention';
import type { GenerationRecord } from '../../../shared/generations';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { publishGenerationChange } from '../../bus/publish';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { presentRecord } from './generations.presenter';
import * as repo from './generations.repository';
import * as keepRepo from './keep.repository';
import { hasLiveOutput } from './output-life';

const notFoundVideo = () =>
  notFound('This video was not found. It may have been deleted already.', 'generation_not_found');

/**
 * Keep (or stop keeping) one of the user's finished videos. Kept, it has no expiry and the sweeper
 * never deletes it; no longer kept, it expires VIDEO_RETENTION_HOURS from now. Keeping needs
 * KEEP_VIDEOS_FOR to allow the user; anyone may stop keeping their own video. Someone else's video
 * is a 404, like one that does not exist. Answers the record as the list shows it.
 */
export async function setVideoKept(
  ctx: ServiceContext,
  user: Pick<UserRow, 'id' | 'isAdmin' | 'subscriptionStatus'>,
  id: string,
  keep: boolean,
): Promise<GenerationRecord> {
  const { videoHours, keepFor } = ctx.config.retention;
  const now = ctx.now();
  const row = await repo.findForUser(ctx.db, user.id, id);
  if (!row) throw notFoundVideo();
  if (keep && !canKeepVideos(keepFor, user))
    throw forbidden(
      `Keeping videos is not available on your account. Videos are deleted ${retentionInWords(videoHours)} after they are made, so download the ones you want.`,
      'keep_not_allowed',
    );
  if (row.status !== 'completed')
    throw conflict('This video is not finished yet. Keep it once it is ready.', 'not_finished');
  if (!hasLiveOutput(row, now))
    throw badRequest(
      `This video has expired (videos are kept for ${retentionInWords(videoHours)}), so it can no longer be kept.`,
      'video_expired',
    );
  if (row.kept === keep) return presentRecord(ctx.secret, row, now);
  const changed = await ctx.db.transaction(async (tx) => {
    const updated = await keepRepo.setKept(
      tx,
      user.id,
      id,
      keep ? { kept: true } : { kept: false, expiresAt: expiryFrom(now, videoHours) },
    );
    if (updated) await publishGenerationChange(tx, user.id, updated.id);
    return updated;
  });
  // Deleted meanwhile (by the user in another tab).
  if (!changed) throw notFoundVideo();
  return presentRecord(ctx.secret, changed, now);
}

/**
 * Kept videos of users KEEP_VIDEOS_FOR no longer allows go back to expiring: VIDEO_RETENTION_HOURS
 * from now, as if their owner had stopped keeping them (never deleted at once). Answers how many.
 */
export async function releaseLapsedKeeps(ctx: ServiceContext): Promise<number> {
  const { videoHours, keepFor } = ctx.config.retention;
  return ctx.db.transaction(async (tx) => {
    const released = await keepRepo.releaseLapsedKeeps(tx, keepFor, expiryFrom(ctx.now(), videoHours));
    for (const row of released) await publishGenerationChange(tx, row.userId, row.id);
    return released.length;
  });
}
