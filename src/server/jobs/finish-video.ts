import path from 'node:path';
import { FINISH_ACTION_VERBS } from '../../shared/finishing';
import type { GenerationFinish } from '../db/schema';
import { EngineError, type VideoEngine } from '../engines/engine';
import { addSound } from '../media/add-sound';
import { type FfmpegBinaries, probeMedia } from '../media/ffmpeg';
import { upscaledSize, upscaleVideo } from '../media/upscale';
import type { ObjectStorage } from '../storage';
import { readStoredCopy } from './stored-copy';

// A finishing action's job (issue 48) on this server: the copy of the original (and of the
// recording) read from storage into the job's work folder, then FFmpeg's upscale and interpolation
// (media/upscale.ts) or the recording laid under it (media/add-sound.ts), with its progress.

/** Interpolating 20 s to 60 fps at 2160p takes minutes on one core; this bounds a broken file. */
const FINISH_MS = 30 * 60_000;
const PROBE_MS = 60_000;

/** Writes the finished video into the work folder and answers its path. A copy no longer stored fails it for good. */
export async function finishOnServer(
  binaries: FfmpegBinaries,
  storage: ObjectStorage,
  finish: GenerationFinish,
  options: { workDir: string; signal: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<string> {
  const fetch = (key: string, name: string) =>
    readStoredCopy(storage, key, path.join(options.workDir, name), {
      signal: options.signal,
      goneMessage: 'The video to finish is no longer stored, so it cannot be finished.',
    });
  const source = await fetch(finish.sourceKey, 'source.mp4');
  const info = await probeMedia(binaries.ffprobe, source, {
    timeoutMs: PROBE_MS,
    signal: options.signal,
    watchdog: binaries.watchdog,
  });
  if (!info.video) throw new EngineError('The video to finish has no picture.', false);
  const seconds = info.durationSeconds || finish.sourceSeconds;
  const output = path.join(options.workDir, 'finished.mp4');
  const run = { signal: options.signal, timeoutMs: FINISH_MS, onProgress: options.onProgress };
  if (finish.action === 'upscale') {
    await upscaleVideo(
      binaries,
      source,
      output,
      {
        ...(finish.resolution ? { size: upscaledSize(info.video, finish.resolution) } : {}),
        ...(finish.fps ? { fps: finish.fps } : {}),
        sourceFps: info.video.frameRate ?? 24,
        seconds,
      },
      run,
    );
    return output;
  }
  if (finish.action === 'add-sound' && finish.audio) {
    const recording = await fetch(finish.audio.key, 'recording');
    await addSound(
      binaries,
      { video: source, recording, output },
      { seconds, videoHasAudio: info.audio !== null },
      run,
    );
    return output;
  }
  throw new EngineError(`This server cannot ${FINISH_ACTION_VERBS[finish.action]} videos itself.`, false);
}

/** A finishing action's job as an engine, so the worker runs it as any job, with the work's progress as the job's. */
export function finishEngine(binaries: FfmpegBinaries, storage: ObjectStorage, finish: GenerationFinish): VideoEngine {
  const stage = finish.action === 'upscale' ? 'Upscaling' : 'Adding the sound';
  return {
    id: finish.tool,
    render: async (_job, context) => ({
      filePath: await finishOnServer(binaries, storage, finish, {
        workDir: context.workDir,
        signal: context.signal,
        onProgress: (fraction) => context.reportProgress(Math.round(5 + fraction * 90), stage),
      }),
    }),
  };
}
