import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngineContext, createEngineJob, removeEngineWorkDirs } from '../../../../tests/support/fake-provider';
import { binaries } from '../../../../tests/support/media';
import type { AdvancedSettings } from '../../../shared/generations';
import { CAMERA_MOVES, type CameraMove } from '../../../shared/models';
import { probeMedia } from '../../media/ffmpeg';
import { createLocalEngine } from './local-engine';

// The local engine renders the asked shape, length and camera move: sizes and durations measured
// with ffprobe, the camera's motion measured on the frames themselves (tiny grey copies of them).

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));
const engine = createLocalEngine(binaries);
const image = { contentType: 'image/png', url: 'http://unused', open: async () => Readable.from([PNG]) };
const W = 48;
const H = 27;

afterAll(() => removeEngineWorkDirs());

async function render(settings: AdvancedSettings, duration: number, withImage = true) {
  const { context } = createEngineContext();
  const job = createEngineJob({
    prompt: 'A cat',
    duration,
    hasAudio: false,
    settings,
    inputs: withImage ? { image } : {},
  });
  return (await engine.render(job, context)).filePath;
}

/** Every frame of a video as W x H grey bytes. */
async function greyFrames(file: string): Promise<Buffer[]> {
  const { stdout } = await promisify(execFile)(
    binaries.ffmpeg,
    ['-v', 'error', '-i', file, '-vf', `scale=${W}:${H},format=gray`, '-f', 'rawvideo', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  const frames: Buffer[] = [];
  for (let at = 0; at + W * H <= stdout.length; at += W * H) frames.push(stdout.subarray(at, at + W * H));
  return frames;
}

/** Mean absolute difference of two frames, 0-255, over the middle of the frame (away from the corner label). */
function difference(a: Buffer, b: Buffer, dx = 0, dy = 0): number {
  let sum = 0;
  let count = 0;
  for (let y = 4; y < H - 10; y += 1) {
    for (let x = 8; x < W - 8; x += 1) {
      const ya = y - dy;
      const xa = x - dx;
      sum += Math.abs((b[y * W + x] ?? 0) - (a[ya * W + xa] ?? 0));
      count += 1;
    }
  }
  return sum / count;
}

/** Where the picture moved from the first frame to the last: the shift that matches them best (+x right, +y down). */
function shift(first: Buffer, last: Buffer): { dx: number; dy: number } {
  let best = { dx: 0, dy: 0, error: Infinity };
  for (let dy = -4; dy <= 4; dy += 1) {
    for (let dx = -8; dx <= 8; dx += 1) {
      const error = difference(first, last, dx, dy);
      if (error < best.error) best = { dx, dy, error };
    }
  }
  return { dx: best.dx, dy: best.dy };
}

describe('the local engine renders the asked shape and length', () => {
  it.each([
    [{ aspectRatio: '9:16', resolution: '480p' }, 3, 480, 854],
    [{ aspectRatio: '1:1', resolution: '720p' }, 2, 720, 720],
    [{ aspectRatio: '16:9', resolution: '1080p' }, 2, 1920, 1080],
    [{ aspectRatio: '9:16', resolution: '720p', cameraMove: 'pan-left' }, 4, 720, 1280],
  ] as const)(
    '%j for %i s is %i x %i, that long',
    async (settings, duration, width, height) => {
      const info = await probeMedia(binaries.ffprobe, await render(settings, duration));
      expect(info.video).toMatchObject({ width, height });
      expect(Math.abs(info.durationSeconds - duration)).toBeLessThanOrEqual(0.1);
    },
    120_000,
  );
});

describe('the local engine moves the camera as asked', () => {
  const cases: Record<CameraMove, Buffer[]> = {} as Record<CameraMove, Buffer[]>;
  const framesOf = async (move: CameraMove) => {
    cases[move] ??= await greyFrames(await render({ cameraMove: move, resolution: '480p' }, 2));
    return cases[move];
  };
  const ends = async (move: CameraMove) => {
    const frames = await framesOf(move);
    const first = frames[0];
    const last = frames.at(-1);
    if (!first || !last) throw new Error('no frames');
    return { first, last };
  };

  it('holds still for static; every other move changes the picture', async () => {
    const still = await ends('static');
    expect(difference(still.first, still.last)).toBeLessThan(1);
    for (const move of CAMERA_MOVES.filter((m) => m !== 'static')) {
      const { first, last } = await ends(move);
      expect(difference(first, last), move).toBeGreaterThan(3);
    }
  }, 400_000);

  it('pans and tilts the right way', async () => {
    // The camera turning left makes the picture slide right, and so on.
    const left = await ends('pan-left');
    expect(shift(left.first, left.last).dx).toBeGreaterThan(1);
    const right = await ends('pan-right');
    expect(shift(right.first, right.last).dx).toBeLessThan(-1);
    const up = await ends('tilt-up');
    expect(shift(up.first, up.last).dy).toBeGreaterThan(0);
    const down = await ends('tilt-down');
    expect(shift(down.first, down.last).dy).toBeLessThan(0);
  }, 200_000);

  it('moves over a generated scene too (a pan there differs from no move)', async () => {
    const plain = await greyFrames(await render({ resolution: '480p', seed: 3 }, 2, false));
    const panned = await greyFrames(await render({ resolution: '480p', seed: 3, cameraMove: 'pan-right' }, 2, false));
    const lastPlain = plain.at(-1);
    const lastPanned = panned.at(-1);
    if (!lastPlain || !lastPanned) throw new Error('no frames');
    expect(difference(lastPlain, lastPanned)).toBeGreaterThan(2);
  }, 200_000);
});
