import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEngineContext, createEngineJob, removeEngineWorkDirs } from '../../../../tests/support/fake-provider';
import { averageColour } from '../../../../tests/support/media';
import { AbortedError, EngineError } from '../engine';
import { type FfmpegBinaries, parseProgressSeconds, probeMedia } from '../../media/ffmpeg';
import { createLocalEngine } from './local-engine';
import { lookFor, moodFor, motionFor, paletteFor } from './prompt-style';
import { frameSize } from './render-plan';

const require = createRequire(import.meta.url);
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

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

afterAll(() => removeEngineWorkDirs());

describe.each(availableBinaries())('the local engine with the %s FFmpeg', (_name, binaries) => {
  const engine = createLocalEngine(binaries);
  const imageInput = { contentType: 'image/png', url: 'http://unused', open: async () => Readable.from([PNG]) };

  it('renders a generated scene with a soundtrack, exactly as long as asked', async () => {
    const { context, progress } = createEngineContext();
    const job = createEngineJob({
      prompt: 'A red and gold % sunset: "quotes" and \\backslashes\\',
      duration: 3,
      hasAudio: true,
    });
    const result = await engine.render(job, context);
    const info = await probeMedia(binaries.ffprobe, result.filePath);
    expect(info.video).toMatchObject({ codec: 'h264', width: 1280, height: 720, pixelFormat: 'yuv420p' });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - 3)).toBeLessThanOrEqual(0.1);
    expect(progress.at(-1)?.progress).toBeGreaterThanOrEqual(80);
  });

  it("paints the generated scene in the prompt's colours", async () => {
    // One colour named: the plasma blends it with itself, so the picture is that colour (red, green, blue).
    const dominant: number[] = [];
    for (const prompt of ['A red city', 'A green city', 'A blue city']) {
      const { context } = createEngineContext();
      const job = createEngineJob({ prompt, duration: 2, hasAudio: false, settings: { resolution: '480p' } });
      const result = await engine.render(job, context);
      const colour = averageColour(result.filePath, 24, 'iw/2:ih/2:iw/4:ih/4', binaries.ffmpeg);
      dominant.push(colour.indexOf(Math.max(...colour)));
    }
    expect(dominant).toEqual([0, 1, 2]);
  });

  it('moves the camera over an image in the frame the settings ask for, silently with audio off', async () => {
    const { context } = createEngineContext();
    const job = createEngineJob({
      prompt: 'Pan left across the cat',
      duration: 2,
      hasAudio: false,
      settings: { aspectRatio: '9:16', resolution: '480p' },
      inputs: { image: imageInput },
    });
    const info = await probeMedia(binaries.ffprobe, (await engine.render(job, context)).filePath);
    expect(info.video).toMatchObject({ width: 480, height: 854 });
    expect(info.audio).toBeNull();
  });

  it('fails without a retry, naming the image, when the image is not a picture', async () => {
    const { context } = createEngineContext();
    const notAnImage = { ...imageInput, open: async () => Readable.from([Buffer.from('not a picture at all')]) };
    const job = createEngineJob({ prompt: 'A cat', duration: 2, hasAudio: false, inputs: { image: notAnImage } });
    const failure = await engine.render(job, context).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({
      retryable: false,
      kind: 'input',
      message: 'The local engine could not read your image. Check that it opens on your device, then upload it again.',
    });
  });

  it('calls a render that fails with no upload in it, or with uploads that read well, this server’s failure', async () => {
    // An FFmpeg that fails every render, as a broken or missing build does.
    const folder = mkdtempSync(path.join(tmpdir(), 'reelsmith-broken-ffmpeg-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const broken = path.join(folder, 'ffmpeg');
    writeFileSync(broken, '#!/bin/sh\necho "Conversion failed!" >&2\nexit 1\n', { mode: 0o755 });
    const failing = createLocalEngine({ ...binaries, ffmpeg: broken });
    for (const inputs of [{}, { image: imageInput }]) {
      const { context } = createEngineContext();
      const job = createEngineJob({ prompt: 'A quiet harbour', duration: 2, hasAudio: false, inputs });
      const failure = await failing.render(job, context).catch((error: unknown) => error);
      expect(failure).toMatchObject({
        retryable: false,
        kind: 'provider',
        message:
          'The local engine failed while making this video. The fault is on this server, not in your request: try again later.',
      });
    }
  });

  it('kills FFmpeg when the job is stopped', async () => {
    const { context, controller } = createEngineContext();
    const rendering = engine.render(
      createEngineJob({ prompt: 'A long blue scene', duration: 20, hasAudio: true }),
      context,
    );
    setTimeout(() => controller.abort('gone'), 300);
    await expect(rendering).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('reading the prompt', () => {
  it('picks colours, motion, look and mood from its words', () => {
    expect(paletteFor('a red and blue city')).toEqual([
      [200, 30, 45],
      [30, 80, 210],
    ]);
    expect(paletteFor('a calm ocean').length).toBe(3);
    expect(paletteFor('nothing coloured')).toHaveLength(3);
    expect(motionFor('Zoom out to reveal the valley')).toBe('zoom-out');
    expect(motionFor('slowly zoom in on her face')).toBe('zoom-in');
    expect(motionFor('the camera pans left')).toBe('pan-left');
    expect(motionFor('a portrait')).toBe('push-in');
    expect(lookFor('in black and white')).toBe('black-and-white');
    expect(lookFor('a vintage home movie')).toBe('vintage');
    expect(lookFor('cyberpunk neon streets')).toBe('neon');
    expect(lookFor('a cinematic chase')).toBe('cinematic');
    expect(lookFor('a warm kitchen')).toBe('warm');
    expect(lookFor('an icy lake')).toBe('cool');
    expect(moodFor('a dark and stormy night')).toBe('dark');
    expect(moodFor('an energetic dance')).toBe('energetic');
    expect(moodFor('a happy birthday')).toBe('happy');
    expect(moodFor('a meadow')).toBe('calm');
  });

  it('sizes the frame', () => {
    expect(frameSize({}, false)).toEqual({ width: 1280, height: 720 });
    expect(frameSize({}, true)).toEqual({ width: 854, height: 480 });
    expect(frameSize({ resolution: '1080p', aspectRatio: '1:1' }, false)).toEqual({ width: 1080, height: 1080 });
  });

  it("reads FFmpeg's progress lines", () => {
    expect(parseProgressSeconds('out_time=00:00:05.500000')).toBe(5.5);
    expect(parseProgressSeconds('out_time=-577014:32:22.77')).toBeNull();
    expect(parseProgressSeconds('frame=12')).toBeNull();
  });
});
