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

const stuckMessage = (error: MediaTimeoutError) =>
  error.reason === 'stalled'
    ? 'The local engine stopped making progress on this video, so it was stopped. An uploaded file may be damaged: check that your files play, then try again.'
    : `The local engine took longer than ${Math.round(error.limitMs / 60_000)} minutes on this video, so it was stopped. Check that your uploaded files play, then try again.`;

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

const unrenderable = (detail: string) =>
  new EngineError(
    'The local engine could not render this video. Check that your uploaded files play, then try again.',
    false,
    detail,
    false,
    'input',
  );

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
      try {
        if (files.image) sizes.image = await imageSizeOf(binaries, files.image, context.signal);
        if (files.endImage) sizes.endImage = await imageSizeOf(binaries, files.endImage, context.signal);
      } catch (error) {
        throwIfAborted(context.signal);
        throw unrenderable(error instanceof Error ? error.message : String(error));
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
          throw new EngineError(stuckMessage(error), false, error.message, false, 'timeout');
        // A broken or unreadable input fails every attempt the same way: not worth retrying.
        throw unrenderable(error instanceof Error ? error.message : String(error));
      }
      return { filePath: request.outputPath };
    },
  };
}
