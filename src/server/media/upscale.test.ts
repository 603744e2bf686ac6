import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { binaries, probeStreams, writeTestClip } from '../../../tests/support/media';
import { probeMedia } from './ffmpeg';
import { upscaledSize, upscaleFilter, upscaleVideo } from './upscale';

// Upscale and smooth on this server (issue 48): a 480p, 24 fps clip (1 s: the interpolation is slow) becomes 1080p at 60 fps with
// the same length and its sound, and the new frames are made between the old ones (motion
// interpolation), not repeated.

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-upscale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How many frames of a file differ from the one before (FFmpeg's mpdecimate drops the near-repeats). */
async function distinctFrames(file: string): Promise<{ all: number; distinct: number }> {
  const count = async (filter: string) => {
    const { stdout } = await run(binaries.ffmpeg, [
      ...['-loglevel', 'error', '-i', file, '-an', '-vf', filter, '-f', 'framemd5', '-'],
    ]);
    return stdout.split('\n').filter((line) => /^0,/.test(line)).length;
  };
  return { all: await count('null'), distinct: await count('mpdecimate') };
}

describe('the local upscale and interpolation', () => {
  it('makes a 480p 24 fps clip 1080p at 60 fps, as long as before, with its sound, from new frames', async () => {
    const source = await writeTestClip(path.join(dir, 'source.mp4'), 1, { size: '854x480', source: 'testsrc2' });
    const output = path.join(dir, 'upscaled.mp4');
    const fractions: number[] = [];
    await upscaleVideo(
      binaries,
      source,
      output,
      { size: upscaledSize({ width: 854, height: 480 }, '1080p'), fps: 60, sourceFps: 24, seconds: 1 },
      { signal: new AbortController().signal, timeoutMs: 300_000, onProgress: (f) => fractions.push(f) },
    );
    const before = await probeMedia(binaries.ffprobe, source);
    const after = await probeMedia(binaries.ffprobe, output);
    expect(after.video).toMatchObject({ width: 1920, height: 1080, codec: 'h264', pixelFormat: 'yuv420p' });
    expect(after.video?.frameRate).toBe(60);
    expect(Math.abs(after.durationSeconds - before.durationSeconds)).toBeLessThan(0.1);
    expect(after.audio?.codec).toBe('aac');
    const streams = (await probeStreams(output)).streams;
    expect(streams.filter((s) => s.codec_type === 'audio')).toHaveLength(1);
    // The picture itself lasts as long as the source's (not only the container, which the sound sets).
    const pictureOf = async (file: string) =>
      Number((await probeStreams(file)).streams.find((s) => s.codec_type === 'video')?.duration);
    expect(Math.abs((await pictureOf(output)) - (await pictureOf(source)))).toBeLessThan(0.02);
    expect(fractions.at(-1)).toBeGreaterThan(0.9);
    // Made between the old frames: nearly every one differs from the one before it. Repeating
    // frames to reach 60 a second (FFmpeg's fps filter) would leave about 24 of every 60 distinct.
    const frames = await distinctFrames(output);
    expect(frames.all).toBe(60);
    expect(frames.distinct / frames.all).toBeGreaterThan(0.9);
    const repeated = path.join(dir, 'repeated.mp4');
    await run(binaries.ffmpeg, ['-y', '-loglevel', 'error', '-i', source, '-vf', 'fps=60', repeated]);
    const copies = await distinctFrames(repeated);
    expect(copies.distinct / copies.all).toBeLessThan(0.6);
  }, 300_000);

  it('sizes a resolution after the source’s shape, a standard one when it is within 1%', () => {
    expect(upscaledSize({ width: 854, height: 480 }, '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(upscaledSize({ width: 480, height: 854 }, '2160p')).toEqual({ width: 2160, height: 3840 });
    expect(upscaledSize({ width: 640, height: 640 }, '1080p')).toEqual({ width: 1080, height: 1080 });
    // Another shape keeps its own (4:3), made even.
    expect(upscaledSize({ width: 640, height: 480 }, '1080p')).toEqual({ width: 1440, height: 1080 });
  });

  it('only scales, or only changes the rate, when asked for one of them', () => {
    expect(upscaleFilter({ size: { width: 3840, height: 2160 }, sourceFps: 24 })).toBe(
      'scale=3840:2160:flags=lanczos,setsar=1',
    );
    expect(upscaleFilter({ fps: 48, sourceFps: 24, seconds: 5 })).toBe(
      'minterpolate=fps=48:mi_mode=mci:mc_mode=aobmc:me_mode=bidir:vsbmc=1,tpad=stop_mode=clone:stop_duration=0.083,fps=48,trim=duration=5,setsar=1',
    );
    // Fewer frames than the source has: dropped evenly, nothing to interpolate.
    expect(upscaleFilter({ fps: 48, sourceFps: 60 })).toBe('fps=48,setsar=1');
  });
});
