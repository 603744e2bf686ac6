import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { UploadKind } from '../../../shared/uploads';
import { EngineError, type EngineContext, type EngineJob, type VideoEngine, throwIfAborted } from '../engine';
import { type FfmpegBinaries, probeMedia, runFfmpeg } from '../../media/ffmpeg';
import { MediaTimeoutError } from '../../media/processes';
import type { ImageSize } from './image-fill';
import { labelFontPath } from './label-font';
import { buildFfmpegArgs, type RenderRequest } from './render-plan';

/**
 * The longest one render may take. The worker's job budget (WORKER_JOB_TIMEOUT_SECONDS) normally
 * stops a job first; this bounds a render anywhere else, and a left-over FFmpeg (processes.ts).
 * The heaviest render (20 s at 1080p with sound) takes about 80 s on a busy 2-core machine.
 */
export const RENDER_TIME_LIMIT_MS = 15 * 60_000;
/**
 * A render whose output has not moved for this long is stuck, whatever its budget: FFmpeg looping
 * over a video input it cannot decode makes no frames at all (the first output frames of the
 * heaviest render come within seconds).
 */
export const RENDER_STALL_MS = 60_000;

/** What a stopped render says: an upload may be what held it, so it names them only where there are some. */
const stuckMessage = (error: MediaTimeoutError, withUploads: boolean) => {
  const stopped =
    error.reason === 'stalled'
      ? 'The local engine stopped making progress on this video, so it was stopped.'
      : `The local engine took longer than ${Math.round(error.limitMs / 60_000)} minutes on this video, so it was stopped.`;
  return withUploads
    ? `${stopped} An uploaded file may be damaged: check that your files play, then try again.`
    : stopped;
};

/** The job's input files on disk: the uploads by kind, and the keyframes' end frame. */
type InputFiles = Partial<Record<UploadKind | 'endImage', string>>;

/** Copies the job's inputs from storage into the work folder, where FFmpeg can read them. */
async function fetchInputs(job: EngineJob, context: EngineContext): Promise<InputFiles> {
  const files: InputFiles = {};
  for (const kind of ['image', 'video', 'audio', 'endImage'] as const) {
    const input = kind === 'endImage' ? job.endImage : job.inputs[kind];
    if (!input) continue;
    const file = path.join(context.workDir, `input-${kind}`);
    try {
      await pipeline(await input.open(), createWriteStream(file), { signal: context.signal });
    } catch (error) {
      throwIfAborted(context.signal);
      throw new EngineError(
        `Your ${kind === 'endImage' ? 'end frame' : kind} file is no longer available. Please upload it again.`,
        false,
        String(error),
        false,
        'input',
      );
    }
    files[kind] = file;
  }
  return files;
}

const INPUT_NAMES: Record<keyof InputFiles, string> = {
  image: 'image',
  endImage: 'end frame',
  video: 'video file',
  audio: 'audio file',
};

/** An upload FFmpeg's reader cannot read: the user's to fix, and the same on every attempt. */
const unreadable = (kind: keyof InputFiles, detail: string) =>
  new EngineError(
    `The local engine could not read your ${INPUT_NAMES[kind]}. Check that it opens on your device, then upload it again.`,
    false,
    detail,
    false,
    'input',
  );

/** A render that failed with nothing of the user's in it, or with inputs that read well: this server's fault. */
const failedHere = (detail: string) =>
  new EngineError(
    'The local engine failed while making this video. The fault is on this server, not in your request: try again later.',
    false,
    detail,
    false,
    'provider',
  );

/**
 * Who a failed render is down to, decided by what failed: with no uploads, this server; with
 * uploads, the first one FFmpeg's reader cannot read, else (they all read) this server again.
 */
async function renderFailure(binaries: FfmpegBinaries, files: InputFiles, detail: string, signal: AbortSignal) {
  for (const kind of ['video', 'audio', 'image', 'endImage'] as const) {
    const file = files[kind];
    if (!file) continue;
    try {
      await probeMedia(binaries.ffprobe, file, { signal, watchdog: binaries.watchdog });
    } catch {
      throwIfAborted(signal);
      return unreadable(kind, detail);
    }
  }
  return failedHere(detail);
}

/** An image's size in pixels, which the render plan needs to frame it. */
export async function imageSizeOf(binaries: FfmpegBinaries, file: string, signal?: AbortSignal): Promise<ImageSize> {
  const { video } = await probeMedia(binaries.ffprobe, file, { signal, watchdog: binaries.watchdog });
  if (!video || video.width < 1 || video.height < 1) throw new Error('ffprobe found no picture in the image');
  return { width: video.width, height: video.height };
}

/** The render request for a job whose inputs are already on disk (shared with the benchmark). */
export function renderRequestFor(
  job: Pick<EngineJob, 'prompt' | 'duration' | 'hasAudio' | 'isEconomy' | 'settings'>,
  files: InputFiles,
  workDir: string,
  sizes: { image?: ImageSize; endImage?: ImageSize } = {},
): RenderRequest {
  return {
    prompt: job.prompt,
    duration: job.duration,
    hasAudio: job.hasAudio,
    isEconomy: job.isEconomy,
    settings: job.settings,
    imagePath: files.image,
    imageSize: sizes.image,
    endImagePath: files.endImage,
    endImageSize: sizes.endImage,
    videoPath: files.video,
    audioPath: job.hasAudio ? files.audio : undefined,
    fontPath: labelFontPath(),
    outputPath: path.join(workDir, 'output.mp4'),
  };
}

/**
 * The local preview engine: renders a real MP4 with FFmpeg from the user's inputs and words, with
 * no keys and no network. It is not an AI model, and the product says so.
 */
export function createLocalEngine(binaries: FfmpegBinaries): VideoEngine {
  return {
    id: 'local',
    async render(job, context) {
      context.reportProgress(2, 'Preparing inputs');
      const files = await fetchInputs(job, context);
      const sizes: { image?: ImageSize; endImage?: ImageSize } = {};
      for (const kind of ['image', 'endImage'] as const) {
        const file = files[kind];
        if (!file) continue;
        try {
          sizes[kind] = await imageSizeOf(binaries, file, context.signal);
        } catch (error) {
          throwIfAborted(context.signal);
          throw unreadable(kind, error instanceof Error ? error.message : String(error));
        }
      }
      const request = renderRequestFor(job, files, context.workDir, sizes);
      context.reportProgress(5, 'Rendering video');
      try {
        await runFfmpeg(binaries.ffmpeg, buildFfmpegArgs(request), {
          signal: context.signal,
          timeoutMs: RENDER_TIME_LIMIT_MS,
          stallMs: RENDER_STALL_MS,
          watchdog: binaries.watchdog,
          outputSeconds: job.duration,
          onProgress: (fraction) => context.reportProgress(5 + Math.round(fraction * 90), 'Rendering video'),
        });
      } catch (error) {
        throwIfAborted(context.signal);
        // A render stuck on its input would get stuck again.
        if (error instanceof MediaTimeoutError)
          throw new EngineError(
            stuckMessage(error, Object.keys(files).length > 0),
            false,
            error.message,
            false,
            'timeout',
          );
        // Every attempt would fail the same way: not worth retrying. Whose failure it is decides
        // what the user is told, and whether REFUND_FAILED_GENERATIONS gives the credits back.
        throw await renderFailure(
          binaries,
          files,
          error instanceof Error ? error.message : String(error),
          context.signal,
        );
      }
      return { filePath: request.outputPath };
    },
  };
}
