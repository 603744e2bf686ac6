import path from 'node:path';
import { type FfmpegBinaries, runFfmpeg } from './ffmpeg';

/** One frame's extraction: a seek and one decoded picture (well under a second for a 20 s video). */
const FRAME_MS = 30_000;

/**
 * Frames spread over a video for screening: one at the middle of each of `count` equal parts, as PNG
 * files in `dir`, at most 512 px on their longer side. Answers the files in order.
 */
export async function sampleFrames(
  binaries: FfmpegBinaries,
  video: string,
  options: { durationSeconds: number; count: number; dir: string; signal: AbortSignal },
): Promise<string[]> {
  const files: string[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const at = (options.durationSeconds * (index + 0.5)) / options.count;
    const file = path.join(options.dir, `screening-${index}.png`);
    await runFfmpeg(
      binaries.ffmpeg,
      [
        '-y',
        '-loglevel',
        'error',
        '-ss',
        at.toFixed(3),
        '-i',
        video,
        '-frames:v',
        '1',
        '-vf',
        "scale='min(512,iw)':'min(512,ih)':force_original_aspect_ratio=decrease",
        file,
      ],
      { signal: options.signal, timeoutMs: FRAME_MS, watchdog: binaries.watchdog },
    );
    files.push(file);
  }
  return files;
}
