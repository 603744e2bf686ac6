import type { ServiceContext } from '../context';
import type { GenerationRow } from '../db/schema';
import { AppError } from '../lib/app-error';
import { deleteGeneration } from '../modules/generations/generations.service';
import { hashesOfStoredMedia } from '../modules/moderation/taken-down.service';
import type { SafetyActor } from '../modules/safety/safety-queue.service';
import { closeTakedown, reportToTakeDown, tellOfTakedown, videoFamily } from '../modules/safety/takedown.service';

/**
 * Takes a reported video down (issue 44): the video and everything made from it (its extends,
 * remixes and continuations, by `parent_id`; variations made beside it from the same request stay),
 * each deleted as its owner's Delete does (the row, its files, and inputs no other video names), so
 * every link to them answers 404. Before anything is deleted, frames of the video and its inputs are
 * remembered by perceptual hash (no re-upload). Then every open report about them is decided as
 * taken down, with the audit row and the owner's `video.taken_down` webhook (one transaction), and
 * the reporters and the owner hear of it by mail when mail is configured. 409 when the report was
 * decided already; a video already gone (expired, deleted) still decides the report.
 */
export async function takeDownReported(
  ctx: ServiceContext,
  actor: SafetyActor,
  reportId: string,
  note: string,
): Promise<{ message: string }> {
  const report = await reportToTakeDown(ctx, reportId);
  const family = await videoFamily(ctx, report.generationId);
  const [video] = family;
  const hashes = video ? await hashesOfStoredMedia(ctx, storedMediaOf(video)) : [];
  // Children first: a running extend of the video stops at its next heartbeat, as for a Delete.
  for (const row of [...family].reverse())
    await deleteGeneration(ctx, row.userId, row.id).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === 'generation_not_found')) throw error;
    });
  const removed = family.map((row) => row.id);
  const decided = await closeTakedown(ctx, actor, report, { removed, hashes, note });
  await tellOfTakedown(ctx, actor, report, decided, note);
  if (removed.length === 0) return { message: 'The video was gone already; the report is closed as taken down.' };
  return {
    message:
      removed.length > 1
        ? `Taken down: the video and ${removed.length - 1} made from it were removed.`
        : 'Taken down: the video was removed.',
  };
}

/** The stored files a taken-down video's hashes are read from: its video, and its inputs still stored. */
function storedMediaOf(row: GenerationRow): { key: string; kind: 'video' | 'image' }[] {
  const inputs = [
    ...(row.inputs.image ? [{ key: row.inputs.image.objectKey, kind: 'image' as const }] : []),
    ...(row.inputs.video ? [{ key: row.inputs.video.objectKey, kind: 'video' as const }] : []),
    ...(row.endImage ? [{ key: row.endImage.objectKey, kind: 'image' as const }] : []),
    ...row.referenceImages.map((input) => ({ key: input.objectKey, kind: 'image' as const })),
  ];
  // The local preview engine's video made from a description alone is a colour study that looks like
  // every other one: its frames would match every later preview, so only inputs and real footage count.
  const ownFootage = row.outputKey && (row.model !== LOCAL_PREVIEW_MODEL || inputs.length > 0);
  return [...(ownFootage && row.outputKey ? [{ key: row.outputKey, kind: 'video' as const }] : []), ...inputs];
}

/** The local preview engine's model id (not an AI model: decision 022). */
const LOCAL_PREVIEW_MODEL = 'local';
