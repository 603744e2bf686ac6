import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AbortedError } from '../lib/aborted-error';

const require = createRequire(import.meta.url);

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
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

function fromPackage(name: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | undefined {
  try {
    const found = (require(name) as { path?: string }).path;
    return found && isExecutable(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The FFmpeg binaries: the configured paths, else the system's (Debian's ffmpeg has every
 * filter), else the npm packages' static builds (older, but enough for the filters used here).
 */
export function resolveFfmpeg(
  configured: { ffmpegPath: string | undefined; ffprobePath: string | undefined },
  pathVariable: string | undefined,
): FfmpegBinaries {
  const ffmpeg = configured.ffmpegPath ?? onPath('ffmpeg', pathVariable) ?? fromPackage('@ffmpeg-installer/ffmpeg');
  const ffprobe = configured.ffprobePath ?? onPath('ffprobe', pathVariable) ?? fromPackage('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new Error('FFmpeg was not found: install ffmpeg, or set FFMPEG_PATH and FFPROBE_PATH.');
  }
  return { ffmpeg, ffprobe };
}

/** Reads FFmpeg's `-progress` lines into seconds of output written. */
export function parseProgressSeconds(line: string): number | null {
  const match = /^out_time=(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(line.trim());
  if (!match || match[1] === '-') return null;
  return Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4]);
}

export interface RunOptions {
  signal: AbortSignal;
  /** Seconds of output expected, to turn progress into a fraction. */
  outputSeconds?: number;
  onProgress?: (fraction: number) => void;
}

/** The exact argument list runFfmpeg starts FFmpeg with (the benchmark runs the same). */
export function ffmpegArgv(args: readonly string[]): string[] {
  return ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', ...args];
}

/**
 * Runs FFmpeg with `-progress pipe:1`; kills it when the signal fires. Rejects with the last
 * lines FFmpeg printed when it fails.
 */
export function runFfmpeg(binary: string, args: readonly string[], options: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new AbortedError());
      return;
    }
    const child = spawn(binary, ffmpegArgv(args), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const seconds = parseProgressSeconds(line);
        if (seconds !== null && options.outputSeconds) {
          options.onProgress?.(Math.min(1, seconds / options.outputSeconds));
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const onAbort = () => child.kill('SIGKILL');
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) reject(new AbortedError());
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

export interface MediaInfo {
  durationSeconds: number;
  video: { codec: string; width: number; height: number; pixelFormat: string } | null;
  audio: { codec: string } | null;
}

interface ProbeJson {
  format?: { duration?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; pix_fmt?: string }[];
}

/** What a media file holds, read with ffprobe. */
export function probeMedia(ffprobe: string, file: string): Promise<MediaInfo> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err = (err + chunk).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`ffprobe could not read the file: ${err.trim()}`));
        return;
      }
      try {
        const json = JSON.parse(out) as ProbeJson;
        const video = json.streams?.find((s) => s.codec_type === 'video');
        const audio = json.streams?.find((s) => s.codec_type === 'audio');
        resolve({
          durationSeconds: Number(json.format?.duration ?? 0),
          video: video
            ? { codec: video.codec_name ?? '', width: video.width ?? 0, height: video.height ?? 0, pixelFormat: video.pix_fmt ?? '' }
            : null,
          audio: audio ? { codec: audio.codec_name ?? '' } : null,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
