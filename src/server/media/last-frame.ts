import { type FfmpegBinaries, runFfmpeg } from './ffmpeg';

/** A 20 s video's last frame takes well under a second; this bounds a broken file. */
const LAST_FRAME_MS = 60_000;

/**
 * Writes the last frame of a video as a PNG: FFmpeg seeks to about half a second before the end
 * and keeps overwriting one image, so the file holds the final decoded frame.
 */
export async function extractLastFrame(
  binaries: FfmpegBinaries,
  video: string,
  png: string,
  signal?: AbortSignal,
): Promise<void> {
  await runFfmpeg(
    binaries.ffmpeg,
    [
      '-y',
      '-loglevel',
      'error',
      '-sseof',
      '-0.5',
      '-i',
      video,
      '-an',
      '-update',
      '1',
      '-vsync',
      '0',
      '-f',
      'image2',
      '-c:v',
      'png',
      png,
    ],
    { signal: signal ?? new AbortController().signal, timeoutMs: LAST_FRAME_MS, watchdog: binaries.watchdog },
  );
}
