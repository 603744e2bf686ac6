import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngineContext, createEngineJob, removeEngineWorkDirs } from '../../../../tests/support/fake-provider';
import {
  contrast,
  greyImage,
  type GreyImage,
  lineSteps,
  meanDifference,
  type Rect,
  sharpness,
} from '../../../../tests/support/frames';
import type { AdvancedSettings } from '../../../shared/generations';
import { type FfmpegBinaries, probeMedia } from '../../media/ffmpeg';
import { createLocalEngine } from './local-engine';

// What a local preview looks like, measured on its frames: the photo itself over the subject (no
// words across it), a label in the top right corner, no seam where the photo meets the blurred
// fill, and a small photo scaled up at least as sharply as a plain Lanczos upscale of it.

const require = createRequire(import.meta.url);
const CAT = path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png');
const CAT_SIZE = { width: 451, height: 300 };
const PNG = readFileSync(CAT);

/** Every FFmpeg this machine has: Debian's (when installed) and the npm package's older static build. */
function availableBinaries(): [string, FfmpegBinaries][] {
  const found: [string, FfmpegBinaries][] = [];
  if (existsSync('/usr/bin/ffmpeg') && existsSync('/usr/bin/ffprobe')) {
    found.push(['system', { ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' }]);
  }
  found.push([
    'npm package',
    {
      ffmpeg: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
      ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
    },
  ]);
  return found;
}

/** Where the whole cat photo sits in a frame: as large as fits, centred. */
function photoPlace(frame: { width: number; height: number }): Rect {
  const scale = Math.min(frame.width / CAT_SIZE.width, frame.height / CAT_SIZE.height);
  const width = Math.round(CAT_SIZE.width * scale);
  const height = Math.round(CAT_SIZE.height * scale);
  return { x: Math.floor((frame.width - width) / 2), y: Math.floor((frame.height - height) / 2), width, height };
}

/** A part of the photo given as shares of its size, in the frame's pixels. */
function partOf(place: Rect, x: number, y: number, width: number, height: number): Rect {
  return {
    x: place.x + Math.round(place.width * x),
    y: place.y + Math.round(place.height * y),
    width: Math.round(place.width * width),
    height: Math.round(place.height * height),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

afterAll(() => removeEngineWorkDirs());

describe.each(availableBinaries())('a local preview of a photo, with the %s FFmpeg', (_name, binaries) => {
  const engine = createLocalEngine(binaries);
  const image = { contentType: 'image/png', url: 'http://unused', open: async () => Readable.from([PNG]) };

  /** Renders the cat held still for 2 s and returns its frame at 1 s (when the old caption showed) as grey. */
  async function renderCat(settings: AdvancedSettings, frame: { width: number; height: number }) {
    const { context } = createEngineContext();
    const job = createEngineJob({
      prompt: 'A cat looking around, soft piano',
      duration: 2,
      hasAudio: false,
      settings: { ...settings, cameraMove: 'static' },
      inputs: { image },
    });
    const { filePath } = await engine.render(job, context);
    const info = await probeMedia(binaries.ffprobe, filePath);
    expect(info.video).toMatchObject(frame);
    expect(Math.abs(info.durationSeconds - 2)).toBeLessThanOrEqual(0.1);
    return greyImage(binaries.ffmpeg, filePath, frame, { atSeconds: 1 });
  }

  /** The cat photo scaled to its place in a frame by a plain Lanczos upscale, as grey, on a frame-sized canvas. */
  async function plainUpscale(frame: { width: number; height: number }): Promise<GreyImage> {
    const place = photoPlace(frame);
    return greyImage(binaries.ffmpeg, CAT, frame, {
      filter: `scale=${place.width}:${place.height}:flags=lanczos,pad=${frame.width}:${frame.height}:${place.x}:${place.y}`,
    });
  }

  const wide = { width: 854, height: 480 };
  const tall = { width: 480, height: 854 };
  const frames: Partial<Record<'wide' | 'tall', Promise<GreyImage>>> = {};
  const wideFrame = () => (frames.wide ??= renderCat({ aspectRatio: '16:9', resolution: '480p' }, wide));
  const tallFrame = () => (frames.tall ??= renderCat({ aspectRatio: '9:16', resolution: '480p' }, tall));

  it('shows the photo itself over the subject, with no words across it, in the asked size and length', async () => {
    const frame = await wideFrame();
    const plain = await plainUpscale(wide);
    const place = photoPlace(wide);
    // The lower middle of the cat (its nose and chin), where the prompt used to be written.
    const subject = partOf(place, 0.2, 0.6, 0.6, 0.35);
    expect(meanDifference(plain, frame, subject)).toBeLessThan(6);
    // And the middle of the picture.
    expect(meanDifference(plain, frame, partOf(place, 0.25, 0.2, 0.5, 0.4))).toBeLessThan(6);
  }, 120_000);

  it('marks the top right corner with a small label, leaving the rest of the top smooth', async () => {
    const frame = await tallFrame();
    const short = Math.min(tall.width, tall.height);
    const corner = { width: Math.round(short * 0.35), height: Math.round(short * 0.1) };
    const topRight = { x: tall.width - corner.width, y: 0, ...corner };
    const topLeft = { x: 0, y: 0, ...corner };
    // Text on a box makes strong contrast; the blurred fill beside it has almost none.
    expect(contrast(frame, topRight)).toBeGreaterThan(30);
    expect(contrast(frame, topLeft)).toBeLessThan(10);
    // The label stays in its corner: the rest of the fill's top band is as smooth.
    const middleTop = { x: 0, y: corner.height, width: tall.width, height: corner.height };
    expect(contrast(frame, middleTop)).toBeLessThan(10);
  }, 120_000);

  it.each([
    ['16:9', 'x', wideFrame, wide],
    ['9:16', 'y', tallFrame, tall],
  ] as const)(
    'has no seam where the photo meets the blurred fill at %s',
    async (_aspect, axis, frameOf, size) => {
      const frame = await frameOf();
      const place = photoPlace(size);
      const steps = lineSteps(frame, axis);
      const [start, end] = axis === 'x' ? [place.x, place.x + place.width] : [place.y, place.y + place.height];
      // The usual change from one line to the next inside the photo, and the largest near its edges.
      const inside = median(steps.slice(start + 40, end - 40));
      const atEdge = (edge: number) => Math.max(...steps.slice(edge - 8, edge + 8));
      expect(atEdge(start)).toBeLessThan(2 * inside);
      expect(atEdge(end)).toBeLessThan(2 * inside);
    },
    120_000,
  );

  it('scales a small photo up at least as sharply as a plain Lanczos upscale', async () => {
    for (const [frameOf, size] of [
      [wideFrame, wide],
      [tallFrame, tall],
    ] as const) {
      const frame = await frameOf();
      const centre = partOf(photoPlace(size), 0.2, 0.15, 0.6, 0.5);
      expect(sharpness(frame, centre)).toBeGreaterThanOrEqual(sharpness(await plainUpscale(size), centre));
    }
  }, 120_000);
});
