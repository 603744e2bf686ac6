import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isWorkingWatchdog, runMediaProcess, startMediaProcess, MediaTimeoutError } from './processes';

const require = createRequire(import.meta.url);

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
  /** coreutils' `timeout`, when this system has one: every run starts under it (see processes.ts). */
  watchdog?: string;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

type BundledPackage = '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe';

function fromPackage(name: BundledPackage): string | undefined {
  try {
    const found = (require(name) as { path?: string }).path;
    return found && isExecutable(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The FFmpeg binaries: the configured paths, else the system's (Debian's ffmpeg has every
 * filter and its security fixes), else the npm packages' static builds (a 2018 FFmpeg: enough for
 * the filters used here, but see oldFfmpegWarning).
 */
export function resolveFfmpeg(
  configured: { ffmpegPath: string | undefined; ffprobePath: string | undefined },
  pathVariable: string | undefined,
): FfmpegBinaries {
  const ffmpeg = configured.ffmpegPath ?? onPath('ffmpeg', pathVariable) ?? fromPackage('@ffmpeg-installer/ffmpeg');
  const ffprobe =
    configured.ffprobePath ?? onPath('ffprobe', pathVariable) ?? fromPackage('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new Error('FFmpeg was not found: install ffmpeg, or set FFMPEG_PATH and FFPROBE_PATH.');
  }
  const timeout = onPath('timeout', pathVariable);
  const watchdog = timeout && isWorkingWatchdog(timeout) ? timeout : undefined;
  return { ffmpeg, ffprobe, ...(watchdog ? { watchdog } : {}) };
}

/**
 * The warning to log at start when FFmpeg or ffprobe is the npm packages' static build: a 2018
 * FFmpeg that decodes files strangers upload, with years of security fixes missing. Null otherwise.
 */
export function oldFfmpegWarning(binaries: Pick<FfmpegBinaries, 'ffmpeg' | 'ffprobe'>): string | null {
  const bundled = [
    binaries.ffmpeg === fromPackage('@ffmpeg-installer/ffmpeg') ? 'ffmpeg' : null,
    binaries.ffprobe === fromPackage('@ffprobe-installer/ffprobe') ? 'ffprobe' : null,
  ].filter((name): name is string => name !== null);
  if (bundled.length === 0) return null;
  return (
    `Using the ${bundled.join(' and ')} bundled with the npm packages: a 2018 FFmpeg build without years of ` +
    'security fixes, and it decodes the files people upload. Install the system FFmpeg (Debian/Ubuntu: ' +
    'apt-get install ffmpeg) so it is on PATH, or set FFMPEG_PATH and FFPROBE_PATH to a current build.'
  );
}

/** Reads FFmpeg's `-progress` lines into seconds of output written. */
export function parseProgressSeconds(line: string): number | null {
  const match = /^out_time=(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(line.trim());
  if (!match || match[1] === '-') return null;
  return Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4]);
}

export interface RunOptions {
  signal: AbortSignal;
  /** Wall-clock limit: past it FFmpeg is killed and the run rejects with MediaTimeoutError. */
  timeoutMs: number;
  /** Kills FFmpeg (MediaTimeoutError 'stalled') when its output time has not moved for this long. */
  stallMs?: number;
  /** FfmpegBinaries.watchdog. */
  watchdog?: string;
  /** Seconds of output expected, to turn progress into a fraction. */
  outputSeconds?: number;
  onProgress?: (fraction: number) => void;
  /** Every `-progress` line (key=value). */
  onProgressLine?: (line: string) => void;
}

/**
 * The picture's encoding for what Reelsmith writes: H.264 (High profile) in 4:2:0 at a constant
 * frame rate, which every browser and phone plays; veryfast, as a render is waited for.
 */
export function h264Output(options: { crf: number; fps: number }): string[] {
  return [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(options.crf), '-profile:v', 'high'],
    ...['-pix_fmt', 'yuv420p', '-r', String(options.fps)],
  ];
}

/** The exact argument list runFfmpeg starts FFmpeg with (the benchmark runs the same). */
export function ffmpegArgv(args: readonly string[]): string[] {
  return ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', ...args];
}

/**
 * Runs FFmpeg with `-progress pipe:1`, in its own process group, killed when the signal fires,
 * past its time limit, or when it stops making progress. Rejects with the last lines FFmpeg
 * printed when it fails.
 */
export async function runFfmpeg(binary: string, args: readonly string[], options: RunOptions): Promise<void> {
  let lastSeconds = -1;
  let lastMove = Date.now();
  let pending = '';
  const run = startMediaProcess(binary, ffmpegArgv(args), {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    watchdog: options.watchdog,
    onStdout: (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        options.onProgressLine?.(line.trim());
        const seconds = parseProgressSeconds(line);
        if (seconds === null || seconds <= lastSeconds) continue;
        lastSeconds = seconds;
        lastMove = Date.now();
        if (options.outputSeconds) options.onProgress?.(Math.min(1, seconds / options.outputSeconds));
      }
    },
  });
  const { stallMs } = options;
  const watch = stallMs
    ? setInterval(
        () => {
          if (Date.now() - lastMove > stallMs) run.stop(new MediaTimeoutError('stalled', stallMs));
        },
        Math.min(1000, stallMs / 4),
      )
    : undefined;
  try {
    const { code, stderr } = await run.done;
    if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  } finally {
    clearInterval(watch);
  }
}

export interface MediaInfo {
  durationSeconds: number;
  /** The first video stream that is a moving picture (an audio file's cover art is not). */
  video: { codec: string; width: number; height: number; pixelFormat: string; frameRate: number | null } | null;
  audio: { codec: string } | null;
  /** The container's own duration, absent when it states none (null): durationSeconds is then 0. */
  statedDurationSeconds: number | null;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  disposition?: { attached_pic?: number };
}
interface ProbeJson {
  format?: { duration?: string };
  streams?: ProbeStream[];
}

/**
 * The average frame rate ("30000/1001"); null when the file does not state it ("0/0"). Not
 * r_frame_rate: for variable-rate files (browser recordings) that is often the time base, 1000.
 */
function frameRateOf(stream: ProbeStream): number | null {
  const [num, den] = (stream.avg_frame_rate ?? '').split('/').map(Number);
  return num && den && Number.isFinite(num / den) && num / den > 0 ? num / den : null;
}

export const PROBE_TIMEOUT_MS = 30_000;

/** What a media file holds, read with ffprobe (within timeoutMs, 30 s by default). */
export async function probeMedia(
  ffprobe: string,
  file: string,
  options: { timeoutMs?: number; signal?: AbortSignal; watchdog?: string } = {},
): Promise<MediaInfo> {
  const { code, stdout, stderr } = await runMediaProcess(
    ffprobe,
    ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file],
    { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, signal: options.signal, watchdog: options.watchdog },
  );
  if (code !== 0) throw new Error(`ffprobe could not read the file: ${stderr.trim()}`);
  const json = JSON.parse(stdout) as ProbeJson;
  const video = json.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = json.streams?.find((s) => s.codec_type === 'audio');
  const stated = Number(json.format?.duration);
  return {
    durationSeconds: Number.isFinite(stated) ? stated : 0,
    statedDurationSeconds: Number.isFinite(stated) ? stated : null,
    video: video
      ? {
          codec: video.codec_name ?? '',
          width: video.width ?? 0,
          height: video.height ?? 0,
          pixelFormat: video.pix_fmt ?? '',
          frameRate: frameRateOf(video),
        }
      : null,
    audio: audio ? { codec: audio.codec_name ?? '' } : null,
  };
}
