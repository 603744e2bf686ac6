import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { GenerationExtension } from '../db/schema';
import { EngineError } from '../engines/engine';
import { type FfmpegBinaries, h264Output, type MediaInfo, probeMedia, runFfmpeg } from '../media/ffmpeg';
import type { ObjectStorage } from '../storage';

// Extend's last step: the original video and its continuation become one video. Both are re-encoded
// through one filter graph to the original's size and frame rate (H.264 and AAC in MP4, what every
// engine's output is stored as), with an optional crossfade (xfade for the picture, acrossfade for
// the sound), so the result plays as one clip whose length is the sum less the crossfade.

/** A 30 s join takes a few seconds on one core; this bounds a broken file. */
const JOIN_MS = 10 * 60_000;
/** FFmpeg stopped writing output for this long: it is stuck. */
const JOIN_STALL_MS = 60_000;
const PROBE_MS = 60_000;
const SAMPLE_RATE = 48_000;
/** Used when the original states no frame rate. */
const FALLBACK_FPS = 24;

/** Rounds to the millisecond, the precision the filter arguments are written with. */
const ms = (seconds: number) => (Math.round(seconds * 1000) / 1000).toFixed(3);

/**
 * The filter graph: each picture scaled (letterboxed when its shape differs) to the original's size,
 * at its frame rate, padded with its last frame and cut to exactly its measured length (so the
 * crossfade starts where the original ends less the crossfade); each sound (silence for a side
 * without one) cut or padded to the same length.
 */
export function joinFilterGraph(options: {
  width: number;
  height: number;
  fps: number;
  durations: [number, number];
  audio: [boolean, boolean] | null;
  crossfadeSeconds: number;
}): { graph: string; audioOut: boolean } {
  const { width, height, fps, durations, crossfadeSeconds } = options;
  const fade = Math.min(crossfadeSeconds, durations[0] / 2, durations[1] / 2);
  const parts: string[] = [];
  durations.forEach((duration, i) => {
    parts.push(
      `[${i}:v]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p,tpad=stop_mode=clone:stop_duration=2,trim=duration=${ms(duration)},setpts=PTS-STARTPTS[v${i}]`,
    );
  });
  parts.push(
    fade > 0
      ? `[v0][v1]xfade=transition=fade:duration=${ms(fade)}:offset=${ms(durations[0] - fade)},format=yuv420p[v]`
      : `[v0][v1]concat=n=2:v=1:a=0[v]`,
  );
  if (options.audio) {
    options.audio.forEach((has, i) => {
      const duration = ms(durations[i] ?? 0);
      const source = has ? `[${i}:a]` : `anullsrc=r=${SAMPLE_RATE}:cl=stereo,`;
      parts.push(
        `${source}aresample=${SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,apad,atrim=duration=${duration},asetpts=PTS-STARTPTS[a${i}]`,
      );
    });
    parts.push(fade > 0 ? `[a0][a1]acrossfade=d=${ms(fade)}:c1=tri:c2=tri[a]` : `[a0][a1]concat=n=2:v=0:a=1[a]`);
  }
  return { graph: parts.join(';'), audioOut: options.audio !== null };
}

/** The length of a video as the join counts it: what ffprobe states for the file. */
const lengthOf = (info: MediaInfo) => info.durationSeconds;

/**
 * Joins the original (a copy kept for this job at `extension.baseKey`) and the rendered continuation
 * into `<workDir>/extended.mp4`; answers its path. A missing or unreadable original fails the job
 * for good (nothing a retry could fix); an FFmpeg failure may be retried.
 */
export async function joinExtension(
  binaries: FfmpegBinaries,
  storage: ObjectStorage,
  extension: GenerationExtension,
  continuation: string,
  options: { hasAudio: boolean; workDir: string; signal: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<string> {
  const base = path.join(options.workDir, 'extend-base.mp4');
  try {
    await pipeline(await storage.read(extension.baseKey), createWriteStream(base));
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new EngineError('The video to extend is no longer stored, so it cannot be joined.', false, String(error));
  }
  const probing = { timeoutMs: PROBE_MS, signal: options.signal, watchdog: binaries.watchdog };
  const [first, second] = await Promise.all([
    probeMedia(binaries.ffprobe, base, probing),
    probeMedia(binaries.ffprobe, continuation, probing),
  ]);
  if (!first.video || !second.video || lengthOf(first) <= 0 || lengthOf(second) <= 0)
    throw new EngineError('The video to extend or its continuation is not a playable video.', false);
  // Even sizes: H.264 in 4:2:0 needs them.
  const width = first.video.width - (first.video.width % 2);
  const height = first.video.height - (first.video.height % 2);
  const fps = Math.round((first.video.frameRate ?? FALLBACK_FPS) * 1000) / 1000;
  const durations: [number, number] = [lengthOf(first), lengthOf(second)];
  const { graph, audioOut } = joinFilterGraph({
    width,
    height,
    fps,
    durations,
    audio: options.hasAudio ? [first.audio !== null, second.audio !== null] : null,
    crossfadeSeconds: extension.crossfadeSeconds,
  });
  const out = path.join(options.workDir, 'extended.mp4');
  const fade = Math.min(extension.crossfadeSeconds, durations[0] / 2, durations[1] / 2);
  await runFfmpeg(
    binaries.ffmpeg,
    [
      '-y',
      '-loglevel',
      'error',
      '-i',
      base,
      '-i',
      continuation,
      '-filter_complex',
      graph,
      '-map',
      '[v]',
      ...(audioOut ? ['-map', '[a]', '-c:a', 'aac', '-b:a', '128k'] : ['-an']),
      ...h264Output({ crf: 20, fps }),
      '-movflags',
      '+faststart',
      out,
    ],
    {
      signal: options.signal,
      timeoutMs: JOIN_MS,
      stallMs: JOIN_STALL_MS,
      watchdog: binaries.watchdog,
      outputSeconds: durations[0] + durations[1] - fade,
      onProgress: options.onProgress,
    },
  ).catch((error: unknown) => {
    if (options.signal.aborted) throw error;
    throw new EngineError('Could not join the video and its continuation.', true, String(error));
  });
  return out;
}
