import type { CreatedGenerationRecord, GenerationRecord, GoneInputKind } from '../../../shared/generations';
import { toCredits } from '../../../shared/money/credits';
import { DEFAULT_VIDEO_RETENTION_HOURS, expiryFrom } from '../../../shared/retention';
import type { UploadKind } from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import type { GenerationInput, GenerationInputs, GenerationRow } from '../../db/schema';
import { watchPath } from '../../../shared/safety';
import { mediaUrl, watchToken } from '../../storage/media-links';
import { objectPathOf } from '../uploads/uploads.service';
import * as repo from './generations.repository';
import { hasLiveOutput, keptLinkExpiry } from './output-life';
import { estimateFor, queueStats } from './queue-estimates';

// How a generation row is shown to its owner. There is one view, the record: the list, the answer
// to a create and the live events all send it. The job view of the older job routes is computed
// from the record, so the two can never say different things about the same row.

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

/** The answer to Generate: the record with its place and estimates, like the live event about it (the browser keeps either). */
export async function presentCreated(
  ctx: ServiceContext,
  created: { row: GenerationRow; queuePosition: number; group: GenerationRow[] },
): Promise<CreatedGenerationRecord> {
  const now = ctx.now();
  const stats = await queueStats(ctx);
  // Variations wait one behind the other (the live events then bring the exact places).
  const group = created.group.map((row, i) => ({
    ...presentRecord(ctx.secret, row, now),
    ...estimateFor(row, created.queuePosition + i, stats, now),
  }));
  const [first] = group;
  if (!first) throw new Error('a created generation has a record');
  return { ...first, group };
}

/** Signed links to the video and its poster while the video lives (kept, or before its expiry); null once it has expired. */
export function linksFor(secret: string, row: GenerationRow, now: Date) {
  const until = !hasLiveOutput(row, now) ? null : row.kept ? keptLinkExpiry(now) : row.expiresAt;
  const link = (key: string | null, contentType: string) =>
    key && until ? mediaUrl(secret, { key, contentType, expiresAt: until }) : null;
  return {
    video: link(row.outputKey, 'video/mp4'),
    poster: link(row.posterKey, 'image/jpeg'),
    watch: until ? watchPath(watchToken(secret, row.id, until)) : null,
  };
}

/** The length of the file made (to a tenth of a second) once there is one, else the length asked for. */
const shownDuration = (row: GenerationRow) =>
  row.outputDuration !== null ? Math.round(row.outputDuration * 10) / 10 : row.requestedDuration;

/** One record without queue figures (presentRecords adds them for unfinished ones). */
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
    watchPath: links.watch,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    kept: row.kept,
    isDraft: row.isDraft,
    progress: row.progress,
    progressStage: row.progressStage,
    errorMessage: row.errorMessage,
    isEconomy: row.isEconomy,
    settings: row.settings,
    ...inputsOf(row, now),
    startedAt: row.startedAt?.toISOString() ?? null,
    queuePosition: null,
    estimatedStartAt: null,
    estimatedReadyAt: null,
    version: row.version,
    parentId: row.parentId,
    groupId: row.groupId,
    credentials: row.credentials,
  };
}

/**
 * The object paths of a generation's inputs whose files still exist (Remix fills them in), and what
 * is gone of the rest (Remix says so): the image, video and audio, the end frame and the reference
 * images, all the owner's own uploads.
 */
export function inputsOf(
  row: GenerationRow,
  now: Date,
): { inputs: NonNullable<GenerationRecord['inputs']>; goneInputs?: GoneInputKind[] } {
  const live: NonNullable<GenerationRecord['inputs']> = {};
  const gone: GoneInputKind[] = [];
  // Records made before inputs carried their expiry were made under the spec's 24 hours.
  const fallback = expiryFrom(row.createdAt, DEFAULT_VIDEO_RETENTION_HOURS);
  const isLive = (input: GenerationInput, kind: GoneInputKind) => {
    const alive = (input.expiresAt ? new Date(input.expiresAt) : fallback) > now;
    if (!alive) gone.push(kind);
    return alive;
  };
  for (const [kind, input] of Object.entries(row.inputs) as [UploadKind, GenerationInputs[UploadKind]][]) {
    if (input && isLive(input, kind)) live[kind] = objectPathOf(row.userId, input.uploadId);
  }
  if (row.endImage && isLive(row.endImage, 'endImage')) live.endImage = objectPathOf(row.userId, row.endImage.uploadId);
  const references = row.referenceImages
    .filter((r) => isLive(r, 'referenceImage'))
    .map((r) => objectPathOf(row.userId, r.uploadId));
  if (references.length > 0) live.referenceImages = references;
  return gone.length > 0 ? { inputs: live, goneInputs: gone } : { inputs: live };
}
