import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  MAX_INPUT_AUDIO_SECONDS,
  MAX_INPUT_FRAME_RATE,
  MAX_INPUT_VIDEO_SECONDS,
  MAX_INPUT_VIDEO_SIDE,
} from '../../../shared/uploads';
import type { ServiceContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { inspectMedia, type MediaInspection, UnreadableMediaError } from '../../media/inspect';
import { MediaTimeoutError } from '../../media/processes';
import { makeWorkDir, removeWorkDir } from '../../media/work-dirs';
import { screenUploadedVideo, type UploadScreening } from '../moderation/moderation.service';
import type { SniffedType } from './upload-guard';

const unplayable = (message: string) => new AppError(422, 'media_unplayable', message);
const BROKEN =
  'This file could not be played: it may be damaged, or it did not finish uploading. Check that it plays, then upload it again.';

/** "45 seconds", "2 minutes 5 seconds". */
function lengthInWords(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} second${whole === 1 ? '' : 's'}`;
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${minutes} minute${minutes === 1 ? '' : 's'}${rest ? ` ${rest} second${rest === 1 ? '' : 's'}` : ''}`;
}

/**
 * The stated length may be estimated (from the bit rate of some MP3s) or, in a cut-off file,
 * much longer than what is there: what could be read must come within this of it.
 */
const truncatedBy = (stated: number) => Math.max(1, stated * 0.1);

/** The upload as it really is (a video file with sound only is audio), or the 422 that refuses it. */
function judge(sniffed: SniffedType, inspection: MediaInspection): SniffedType {
  const { info, readSeconds } = inspection;
  const kind = sniffed.kind === 'video' && !info.video && info.audio ? 'audio' : sniffed.kind;
  if (kind === 'video' && !info.video) throw unplayable('This video file has no picture that can be played.');
  if (kind === 'audio' && !info.audio) throw unplayable('This audio file has no sound that can be played.');
  const stated = info.statedDurationSeconds;
  if (stated !== null && readSeconds + truncatedBy(stated) < stated) {
    throw unplayable(
      `This file stops after ${lengthInWords(readSeconds)} although it says it is ${lengthInWords(stated)} long: ` +
        'it may be damaged, or it did not finish uploading. Upload it again.',
    );
  }
  const length = Math.max(readSeconds, stated ?? 0);
  const limit = kind === 'video' ? MAX_INPUT_VIDEO_SECONDS : MAX_INPUT_AUDIO_SECONDS;
  if (length > limit) {
    throw new AppError(
      422,
      'media_too_long',
      `${kind === 'video' ? 'Videos' : 'Audio files'} can be at most ${lengthInWords(limit)} long; this one is ${lengthInWords(length)}. Trim it, then upload it again.`,
    );
  }
  if (kind === 'video' && info.video) {
    const { width, height, frameRate } = info.video;
    if (width > MAX_INPUT_VIDEO_SIDE || height > MAX_INPUT_VIDEO_SIDE) {
      throw new AppError(
        422,
        'media_frame_too_large',
        `Videos can be at most ${MAX_INPUT_VIDEO_SIDE} pixels wide and tall; this one is ${width}x${height}. Export it smaller, then upload it again.`,
      );
    }
    if (frameRate !== null && frameRate > MAX_INPUT_FRAME_RATE + 0.5) {
      throw new AppError(
        422,
        'media_frame_rate_too_high',
        `Videos can have at most ${MAX_INPUT_FRAME_RATE} frames a second; this one has ${Math.round(frameRate)}. Export it at a lower frame rate, then upload it again.`,
      );
    }
  }
  if (kind === sniffed.kind) return sniffed;
  return { kind, mime: sniffed.mime.replace(/^video\//, 'audio/') };
}

/**
 * Checks a stored video or audio upload with FFmpeg before anyone may use it: it must play from
 * start to end (a truncated file or one whose header lies is refused), hold the stream its kind
 * needs, and stay within the input limits. Images pass as they are: they are never looped, and
 * the render's budget bounds them. Answers the upload's real kind; throws a 422 AppError.
 */
export async function checkStoredMedia(
  ctx: ServiceContext,
  objectKey: string,
  sniffed: SniffedType,
): Promise<SniffedType & { screening?: UploadScreening }> {
  if (sniffed.kind === 'image') return sniffed;
  const dir = await makeWorkDir('uploadCheck');
  try {
    const file = path.join(dir, 'input');
    await pipeline(await ctx.storage.read(objectKey), createWriteStream(file));
    const inspection = await inspectMedia(ctx.media, file, sniffed.kind).catch((error: unknown) => {
      if (error instanceof UnreadableMediaError) throw unplayable(BROKEN);
      if (error instanceof MediaTimeoutError) {
        throw unplayable(
          'This file took too long to read, so it was refused. Check that it plays, or try a shorter or smaller file.',
        );
      }
      throw error;
    });
    const judged = judge(sniffed, inspection);
    if (judged.kind !== 'video') return judged;
    // A video input is screened as a picture is: frames spread over it (issue 43).
    return { ...judged, screening: await screenUploadedVideo(ctx, file, inspection.readSeconds) };
  } finally {
    await removeWorkDir(dir);
  }
}
