import { AbortedError } from '../lib/aborted-error';
import { type FfmpegBinaries, type MediaInfo, parseProgressSeconds, probeMedia, runFfmpeg } from './ffmpeg';
import { MediaTimeoutError } from './processes';

/** Limits of each step of an inspection: a hostile file costs at most about a minute. */
const PROBE_MS = 15_000;
const READ_THROUGH_MS = 30_000;
const DECODE_MS = 20_000;
/** Seconds decoded from the start: enough to show the codec and the first frames really decode. */
const DECODE_SECONDS = 2;

/** What an uploaded video or audio file really holds, as far as FFmpeg can tell. */
export interface MediaInspection {
  info: MediaInfo;
  /** How far every packet of the stream could be read, in seconds (the stated duration may lie). */
  readSeconds: number;
}

/** The file could not be read or decoded; `detail` is FFmpeg's own words, for the log. */
export class UnreadableMediaError extends Error {
  constructor(readonly detail: string) {
    super(`unreadable media: ${detail}`);
    this.name = 'UnreadableMediaError';
  }
}

/**
 * FFmpeg's complaint about the file as UnreadableMediaError; our own stop (abort, time limit) and
 * a binary that would not start (a system error with a code) as they were.
 */
function asUnreadable(error: unknown): Error {
  if (error instanceof AbortedError || error instanceof MediaTimeoutError) return error;
  if (error instanceof Error && 'code' in error) return error;
  return new UnreadableMediaError((error instanceof Error ? error.message : String(error)).slice(-500));
}

/**
 * Inspects a video or audio file in three bounded steps: ffprobe reads what it says it holds;
 * FFmpeg reads every packet of its main stream without decoding (fast; a truncated or corrupt
 * file fails here, and the real length is measured); then it decodes the first seconds. Any
 * error at all fails (`-xerror`). Throws UnreadableMediaError; a timeout or abort is rethrown.
 */
export async function inspectMedia(
  binaries: FfmpegBinaries,
  file: string,
  kind: 'video' | 'audio',
  signal: AbortSignal = new AbortController().signal,
): Promise<MediaInspection> {
  let info: MediaInfo;
  try {
    info = await probeMedia(binaries.ffprobe, file, { timeoutMs: PROBE_MS, signal, watchdog: binaries.watchdog });
  } catch (error) {
    throw asUnreadable(error);
  }
  // An MP4 or WebM with sound only is an audio file: its main stream is the sound.
  const stream = kind === 'video' && info.video ? '0:V:0' : info.audio ? '0:a:0' : null;
  if (!stream) return { info, readSeconds: 0 };
  const common = { signal, watchdog: binaries.watchdog };
  let readSeconds = 0;
  let frames = 0;
  let decodedSeconds = 0;
  try {
    await runFfmpeg(
      binaries.ffmpeg,
      ['-v', 'error', '-xerror', '-i', file, '-map', stream, '-c', 'copy', '-f', 'null', '-'],
      {
        ...common,
        timeoutMs: READ_THROUGH_MS,
        onProgressLine: (line) => (readSeconds = Math.max(readSeconds, parseProgressSeconds(line) ?? 0)),
      },
    );
    await runFfmpeg(
      binaries.ffmpeg,
      ['-v', 'error', '-xerror', '-t', String(DECODE_SECONDS), '-i', file, '-map', stream, '-f', 'null', '-'],
      {
        ...common,
        timeoutMs: DECODE_MS,
        onProgressLine: (line) => {
          if (line.startsWith('frame=')) frames = Math.max(frames, Number(line.slice(6)) || 0);
          decodedSeconds = Math.max(decodedSeconds, parseProgressSeconds(line) ?? 0);
        },
      },
    );
  } catch (error) {
    throw asUnreadable(error);
  }
  const decoded = stream === '0:V:0' ? frames > 0 : decodedSeconds > 0 || frames > 0;
  if (!decoded) throw new UnreadableMediaError('nothing could be decoded from the start of the file');
  return { info, readSeconds };
}
