import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readEnv } from '../../src/server/config';
import { type MediaInfo, probeMedia, resolveFfmpeg } from '../../src/server/media/ffmpeg';

const run = promisify(execFile);
export const binaries = resolveFfmpeg({ ffmpegPath: undefined, ffprobePath: undefined }, readEnv().PATH);

/** Small real media files made with FFmpeg's test sources: a 3 s clip with sound, and a tone. */
export async function makeMediaFixtures(): Promise<{ video: Buffer; audio: Buffer }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-media-'));
  const audio = path.join(dir, 'tone.wav');
  await run(binaries.ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=330:d=4', audio]);
  return { video: await makeClip(3), audio: readFileSync(audio) };
}

/**
 * Writes an H.264 clip of one of FFmpeg's moving test pictures to `file`: `size` (320x240), `fps`
 * (24), `source` (testsrc), with an AAC tone of `tone` Hz (440), or silent when `tone` is null.
 */
export async function writeTestClip(
  file: string,
  seconds: number,
  options: { size?: string; fps?: number; source?: string; tone?: number | null } = {},
): Promise<string> {
  const { size = '320x240', fps = 24, source = 'testsrc', tone = 440 } = options;
  const sound = tone === null ? [] : ['-f', 'lavfi', '-i', `sine=f=${tone}:d=${seconds}`, '-c:a', 'aac'];
  await run(binaries.ffmpeg, [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `${source}=s=${size}:r=${fps}:d=${seconds}`],
    ...sound,
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-shortest', file],
  ]);
  return file;
}

/** A 320x240, 24 fps H.264 clip with an AAC tone, this many seconds long. */
export async function makeClip(seconds: number): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-media-'));
  const bytes = readFileSync(await writeTestClip(path.join(dir, 'clip.mp4'), seconds));
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** A still picture (any image FFmpeg reads) as an H.264 clip this many seconds long. */
export async function clipOfPicture(picture: string, seconds: number): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-media-'));
  const video = path.join(dir, 'still.mp4');
  await run(binaries.ffmpeg, [
    '-y',
    '-loglevel',
    'error',
    '-loop',
    '1',
    '-i',
    picture,
    '-t',
    String(seconds),
    '-r',
    '24',
    '-vf',
    'scale=trunc(iw/2)*2:trunc(ih/2)*2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    video,
  ]);
  const bytes = readFileSync(video);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/**
 * A faststart MP4 cut just after its index: every frame the index promises is missing, so FFmpeg
 * decoding it makes no frame (and looping over it, -stream_loop -1, never ends).
 */
export async function makeCutMp4(): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-media-'));
  const whole = path.join(dir, 'whole.mp4');
  await run(binaries.ffmpeg, [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x120:r=24:d=3',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    whole,
  ]);
  const bytes = readFileSync(whole);
  rmSync(dir, { recursive: true, force: true });
  let offset = 0;
  while (offset + 8 <= bytes.length && bytes.toString('latin1', offset + 4, offset + 8) !== 'mdat')
    offset += bytes.readUInt32BE(offset);
  return bytes.subarray(0, offset + 64);
}

/** Writes bytes to a temporary file and reads them with ffprobe. */
export async function probeBytes(bytes: Buffer): Promise<MediaInfo> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'reelsmith-probe-')), 'video.mp4');
  writeFileSync(file, bytes);
  return probeMedia(binaries.ffprobe, file);
}

/**
 * The average colour (RGB) of frame `n` of a video over a region (an FFmpeg crop: width, height, x, y;
 * by default the top half).
 */
export function averageColour(
  file: string,
  n: number,
  region = 'iw:ih/2:0:0',
  ffmpeg = binaries.ffmpeg,
): [number, number, number] {
  const out = execFileSync(ffmpeg, [
    '-loglevel',
    'error',
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${n}),crop=${region},scale=1:1:flags=area`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return [out[0] ?? 0, out[1] ?? 0, out[2] ?? 0];
}

/** Integrated loudness (EBU R128) of a file's sound, in LUFS, as FFmpeg's ebur128 meter reports it. */
export async function integratedLoudness(file: string): Promise<number> {
  const { stderr } = await run(binaries.ffmpeg, [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-af',
    'ebur128',
    '-f',
    'null',
    '-',
  ]);
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderr.slice(stderr.lastIndexOf('Summary:')))?.[1]);
}

/** What ffprobe says of a file's streams and container, as JSON. */
export interface ProbedStreams {
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    duration?: string;
    nb_frames?: string;
  }[];
  format: { duration: string };
}
export async function probeStreams(file: string): Promise<ProbedStreams> {
  const { stdout } = await run(binaries.ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  return JSON.parse(stdout) as ProbedStreams;
}
