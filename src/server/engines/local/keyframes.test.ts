import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngineContext, createEngineJob, removeEngineWorkDirs } from '../../../../tests/support/fake-provider';
import { averageColour } from '../../../../tests/support/media';
import { type FfmpegBinaries, probeMedia } from '../../media/ffmpeg';
import { createLocalEngine } from './local-engine';
import { FPS } from './render-plan';

// Keyframes on the local engine: a start and an end image make a clip that opens on the start and
// closes on the end (a crossfade under the usual motion), in the asked shape and length.

const require = createRequire(import.meta.url);
const binaries: FfmpegBinaries =
  existsSync('/usr/bin/ffmpeg') && existsSync('/usr/bin/ffprobe')
    ? { ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' }
    : {
        ffmpeg: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
        ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
      };

afterAll(() => removeEngineWorkDirs());

/** A 640x360 PNG of one colour (with a lighter square, so it is a picture rather than a fill). */
function pictureOf(colour: string, dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync(binaries.ffmpeg, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=${colour}:s=640x360`,
    '-vf',
    'drawbox=x=260:y=120:w=120:h=120:color=white@0.3:t=fill',
    '-frames:v',
    '1',
    file,
  ]);
  return file;
}

const input = (file: string) => ({
  contentType: 'image/png',
  url: 'http://unused',
  open: async () => createReadStream(file),
});

describe('keyframes on the local engine', () => {
  it('opens on the start image and closes on the end image, at the asked size, shape and length', async () => {
    const { context } = createEngineContext();
    const start = pictureOf('0xC81E1E', context.workDir, 'start.png');
    const end = pictureOf('0x1E3CC8', context.workDir, 'end.png');
    const job = createEngineJob({
      prompt: 'The red room turns blue',
      duration: 4,
      hasAudio: true,
      settings: { aspectRatio: '9:16', resolution: '480p', cameraMove: 'dolly-in' },
      inputs: { image: input(start) },
      endImage: input(end),
    });
    const result = await createLocalEngine(binaries).render(job, context);
    const info = await probeMedia(binaries.ffprobe, result.filePath);
    expect(info.video).toMatchObject({ codec: 'h264', width: 480, height: 854 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThanOrEqual(0.1);

    const [r0, , b0] = averageColour(result.filePath, 0, undefined, binaries.ffmpeg);
    const [r1, , b1] = averageColour(result.filePath, 4 * FPS - 1, undefined, binaries.ffmpeg);
    // The first frame is the red start, the last the blue end; the middle is between them.
    expect(r0).toBeGreaterThan(150);
    expect(b0).toBeLessThan(80);
    expect(b1).toBeGreaterThan(150);
    expect(r1).toBeLessThan(80);
    const [rm, , bm] = averageColour(result.filePath, 2 * FPS, undefined, binaries.ffmpeg);
    expect(rm).toBeGreaterThan(60);
    expect(bm).toBeGreaterThan(60);
  }, 120_000);

  it('without an end image renders the start image alone, as before', async () => {
    const { context } = createEngineContext();
    const start = pictureOf('0xC81E1E', context.workDir, 'start.png');
    const job = createEngineJob({
      prompt: 'A red room',
      duration: 2,
      hasAudio: false,
      settings: { aspectRatio: '1:1', resolution: '480p', cameraMove: 'static' },
      inputs: { image: input(start) },
    });
    const result = await createLocalEngine(binaries).render(job, context);
    const info = await probeMedia(binaries.ffprobe, result.filePath);
    expect(info.video).toMatchObject({ width: 480, height: 480 });
    const [r1, , b1] = averageColour(result.filePath, 2 * FPS - 1, undefined, binaries.ffmpeg);
    expect(r1).toBeGreaterThan(150);
    expect(b1).toBeLessThan(80);
  }, 120_000);
});
