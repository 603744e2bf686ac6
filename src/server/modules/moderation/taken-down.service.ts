import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CONTENT_POLICY_CODE, type ReviewFinding, TAKEN_DOWN_MATCH_MESSAGE } from '../../../shared/moderation';
import type { ServiceContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { differenceHash, hashDistance, SAME_PICTURE_DISTANCE } from '../../media/perceptual-hash';
import { probeMedia } from '../../media/ffmpeg';
import { sampleFrames } from '../../media/sample-frames';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import * as repo from './taken-down.repository';

// No re-upload (issue 44): a taken-down video's frames and inputs are remembered by perceptual hash,
// and a later upload or render that matches one is refused or held (SAFETY_MATCH_ACTION).

/** Frames remembered of a taken-down video. */
const FRAMES_REMEMBERED = 6;
const HASHING_MS = 120_000;

/** The difference hashes of pictures (files), leaving out those too plain to recognise. */
export async function hashPictures(ctx: ServiceContext, files: readonly string[], signal: AbortSignal) {
  const hashes: string[] = [];
  for (const file of files) {
    const hash = await differenceHash(ctx.media, file, { signal }).catch(() => null);
    if (hash) hashes.push(hash);
  }
  return hashes;
}

/**
 * What to remember of a video being taken down: frames spread over its stored file, and the pictures
 * and frames of the inputs it was made from (those still stored). Read before anything is deleted.
 */
export async function hashesOfStoredMedia(
  ctx: ServiceContext,
  objects: { key: string; kind: 'video' | 'image' }[],
): Promise<string[]> {
  const dir = await makeWorkDir('safety');
  const signal = AbortSignal.timeout(HASHING_MS);
  try {
    const hashes: string[] = [];
    for (const [index, object] of objects.entries()) {
      const file = path.join(dir, `object-${index}`);
      const stored = await ctx.storage.read(object.key).catch(() => null);
      if (!stored) continue;
      await pipeline(stored, createWriteStream(file));
      if (object.kind === 'image') {
        hashes.push(...(await hashPictures(ctx, [file], signal)));
        continue;
      }
      const info = await probeMedia(ctx.media.ffprobe, file, { timeoutMs: 30_000, signal }).catch(() => null);
      if (!info?.video) continue;
      const framesDir = path.join(dir, `frames-${index}`);
      await mkdir(framesDir);
      const frames = await sampleFrames(ctx.media, file, {
        durationSeconds: info.durationSeconds,
        count: FRAMES_REMEMBERED,
        dir: framesDir,
        signal,
      }).catch(() => []);
      hashes.push(...(await hashPictures(ctx, frames, signal)));
    }
    return [...new Set(hashes)];
  } finally {
    await removeWorkDir(dir);
  }
}

/**
 * Whether any of these pictures (files) is one of a taken-down video's: with SAFETY_MATCH_ACTION=block
 * a 422 `content_policy` is thrown; with `review` the finding is answered for a hold; null when none
 * matches (or nothing was ever taken down).
 */
export async function checkTakenDown(
  ctx: ServiceContext,
  files: readonly string[],
  signal: AbortSignal,
): Promise<ReviewFinding | null> {
  const known = await repo.takenDownHashes(ctx.db);
  if (known.length === 0) return null;
  for (const hash of await hashPictures(ctx, files, signal)) {
    const nearest = Math.min(...known.map((other) => hashDistance(hash, other)));
    if (nearest > SAME_PICTURE_DISTANCE) continue;
    if (ctx.config.moderation.safety.matchAction === 'block')
      throw new AppError(422, CONTENT_POLICY_CODE, TAKEN_DOWN_MATCH_MESSAGE);
    return { category: 'taken_down', score: Math.round((1 - nearest / 64) * 100) / 100 };
  }
  return null;
}

/** `checkTakenDown` for a picture held in memory (an upload), written to a work folder for FFmpeg. */
export async function checkTakenDownPicture(ctx: ServiceContext, image: Buffer): Promise<ReviewFinding | null> {
  if (!(await repo.anyTakenDown(ctx.db))) return null;
  const dir = await makeWorkDir('safety');
  try {
    const file = path.join(dir, 'picture');
    await writeFile(file, image);
    return await checkTakenDown(ctx, [file], AbortSignal.timeout(HASHING_MS));
  } finally {
    await removeWorkDir(dir);
  }
}
