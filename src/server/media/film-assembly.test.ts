import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaries, integratedLoudness, probeStreams, writeTestClip } from '../../../tests/support/media';
import { labelFontPath } from '../engines/local/label-font';
import {
  assembleFilm,
  FILM_LOUDNESS_LUFS,
  type FilmPlan,
  filmSeconds,
  planProblem,
  SAFE_MARGIN,
  wrapWords,
} from './film-assembly';

const run = promisify(execFile);
let dir: string;

/** A take as a model would give one: a moving test picture of this size, with a tone or silent. */
const take = (name: string, size: string, seconds: number, tone: number | null) =>
  writeTestClip(path.join(dir, `${name}.mp4`), seconds, { size, fps: 30, source: 'testsrc2', tone });

/** The mean brightness (0 to 255) of a column of the frame at this time: the fill beside a framed shot is not black. */
async function columnBrightness(file: string, seconds: number, x: number): Promise<number> {
  const { stdout } = await run(
    binaries.ffmpeg,
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `crop=4:ih:${x}:0,format=gray`,
      '-f',
      'rawvideo',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  const pixels = stdout as unknown as Buffer;
  return pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
}

const signal = () => AbortSignal.timeout(120_000);
let wide: string;
let tall: string;
let quiet: string;
let bed: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-film-'));
  [wide, tall, quiet] = await Promise.all([
    take('wide', '640x360', 3, 440),
    take('tall', '360x640', 3, 660),
    take('quiet', '640x360', 3, null),
  ]);
  bed = path.join(dir, 'bed.wav');
  // A quiet music bed of 4 s: shorter than the film, so it loops.
  await run(binaries.ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=220:d=4,volume=-20dB', bed]);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a film from its shots', () => {
  it('joins a title card and three takes (one 9:16 among 16:9) with two crossfades and a music bed into one MP4 at the loudness target', async () => {
    const plan: FilmPlan = {
      width: 640,
      height: 360,
      fps: 24,
      fontFile: labelFontPath(),
      parts: [
        { kind: 'card', text: 'The Lighthouse', seconds: 1.5, background: '#1e1b4b' },
        { kind: 'shot', file: wide, start: 0.2, end: 2.2, hasAudio: true, caption: 'Dusk on the coast' },
        { kind: 'shot', file: tall, start: 0, end: 2, hasAudio: true },
        { kind: 'shot', file: quiet, start: 0.5, end: 2.5, hasAudio: false },
      ],
      transitions: ['cut', 'crossfade', 'crossfade'],
      transitionSeconds: 0.5,
      bed,
    };
    // The trimmed takes (2 + 2 + 2) less the two crossfades (0.5 each), plus the card (1.5).
    expect(filmSeconds(plan)).toBe(6.5);
    const output = path.join(dir, 'film.mp4');
    const progress: number[] = [];
    const seconds = await assembleFilm(plan, {
      binaries,
      workDir: dir,
      output,
      signal: signal(),
      timeoutMs: 120_000,
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(seconds).toBe(6.5);

    const probed = await probeStreams(output);
    const video = probed.streams.filter((stream) => stream.codec_type === 'video');
    const audio = probed.streams.filter((stream) => stream.codec_type === 'audio');
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({ codec_name: 'h264', width: 640, height: 360, avg_frame_rate: '24/1' });
    expect(audio).toHaveLength(1);
    expect(audio[0]?.codec_name).toBe('aac');
    expect(Math.abs(Number(video[0]?.duration) - 6.5)).toBeLessThan(0.1);
    expect(Math.abs(Number(probed.format.duration) - 6.5)).toBeLessThan(0.15);

    expect(Math.abs((await integratedLoudness(output)) - FILM_LOUDNESS_LUFS)).toBeLessThanOrEqual(1);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    // The 9:16 take, in the middle of its own time (3.5 to 5 s), is framed whole over a fill of
    // itself: the frame's edge columns are its blurred colours, not black bars.
    expect(await columnBrightness(output, 4.2, 0)).toBeGreaterThan(20);
    expect(await columnBrightness(output, 4.2, 636)).toBeGreaterThan(20);
  }, 180_000);

  it('keeps a film with no sound anywhere silent, and cuts without overlap', async () => {
    const output = path.join(dir, 'silent.mp4');
    const seconds = await assembleFilm(
      {
        width: 360,
        height: 640,
        fps: 24,
        fontFile: labelFontPath(),
        parts: [
          { kind: 'shot', file: quiet, start: 0, end: 1, hasAudio: false },
          {
            kind: 'shot',
            file: quiet,
            start: 1,
            end: 2,
            hasAudio: false,
            caption: 'A caption long enough to need two lines on a phone',
          },
        ],
        transitions: ['fade-black'],
        transitionSeconds: 0.25,
      },
      { binaries, workDir: dir, output, signal: signal(), timeoutMs: 120_000 },
    );
    expect(seconds).toBe(1.75);
    const probed = await probeStreams(output);
    expect(probed.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ width: 360, height: 640 });
    expect(Math.abs(Number(probed.format.duration) - 1.75)).toBeLessThan(0.15);
  }, 120_000);
});

describe('what a plan may be', () => {
  const shot = (start: number, end: number) => ({ kind: 'shot' as const, file: 'x.mp4', start, end, hasAudio: true });
  const base = { width: 640, height: 360, fps: 24, fontFile: 'f.ttf', transitionSeconds: 0.5 };
  it.each([
    [{ parts: [], transitions: [] }, 'A film needs at least one shot or card.'],
    [{ parts: [shot(0, 2), shot(0, 2)], transitions: [] }, '2 parts need 1 transitions, not 0.'],
    [{ parts: [shot(2, 2)], transitions: [] }, 'Part 1 has no length: its end must come after its start.'],
    [
      { parts: [shot(0, 2), shot(0, 0.9), shot(0, 2)], transitions: ['crossfade', 'fade-black'] },
      'Part 2 lasts 0.9 s, too short for its 0.5 s transitions.',
    ],
  ] as const)('refuses %j', (plan, sentence) => {
    expect(planProblem({ ...base, ...plan, parts: [...plan.parts], transitions: [...plan.transitions] })).toBe(
      sentence,
    );
  });

  it('accepts a short part between two cuts', () => {
    expect(
      planProblem({ ...base, parts: [shot(0, 2), shot(0, 0.4), shot(0, 2)], transitions: ['cut', 'cut'] }),
    ).toBeNull();
  });

  it('breaks words into lines inside the safe area, and a word too long for a line into pieces', () => {
    const width = 360;
    const fontSize = 18;
    const perLine = Math.floor((width * (1 - 2 * SAFE_MARGIN)) / (fontSize * 0.55));
    const wrapped = wrapWords(`A caption for a phone screen ${'x'.repeat(60)} end`, width, fontSize);
    for (const line of wrapped.split('\n')) expect(line.length).toBeLessThanOrEqual(perLine);
    expect(wrapped.replace(/\n/g, ' ').replace(/x /g, 'x')).toContain('A caption for a phone screen');
    expect(wrapped.split('\n').length).toBeGreaterThan(2);
  });
});
