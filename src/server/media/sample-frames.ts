import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type FfmpegBinaries, runFfmpeg } from './ffmpeg';

/** One decode of the video for all its frames (a 20 s video: about a second). */
const FRAMES_MS = 60_000;

/**
 * Frames spread over a video for screening: about one in each of `count` equal parts, taken in one
 * FFmpeg run (an `fps` filter at count / duration frames a second), as PNG files in `dir`, at most
 * 512 px on their longer side. Answers the files in order.
 */
export async function sampleFrames(
  binaries: FfmpegBinaries,
  video: string,
  options: { durationSeconds: number; count: number; dir: string; signal: AbortSignal },
): Promise<string[]> {
  const rate = options.count / Math.max(options.durationSeconds, 0.1);
  await runFfmpeg(
    binaries.ffmpeg,
    [
      '-y',
      '-loglevel',
      'error',
      '-i',
      video,
      '-vf',
      `fps=${rate.toFixed(6)},scale='min(512,iw)':'min(512,ih)':force_original_aspect_ratio=decrease`,
      '-frames:v',
      String(options.count),
      path.join(options.dir, 'screening-%02d.png'),
    ],
    { signal: options.signal, timeoutMs: FRAMES_MS, watchdog: binaries.watchdog },
  );
  const files = (await readdir(options.dir)).filter((name) => /^screening-\d+\.png$/.test(name)).sort();
  if (files.length === 0) throw new Error('no frame could be taken from the video');
  return files.map((name) => path.join(options.dir, name));
}
