// The export of a 60 s film of ten shots (issue 47): ten 720p takes of 6.5 s with sound (one of them
// 9:16, framed over its fill), trimmed to 6.45 s, a title card, nine crossfades of 0.5 s and a music
// bed, normalised to the loudness target. Prints the wall time of each round as a ratio to the film's
// length (1.0 = as long as the film plays), the render and the sound's pass together.
// Run: npm run bench:film-export (FFMPEG_PATH as the server reads it; BENCH_ROUNDS, default 2)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readEnv } from '../src/server/config';
import { labelFontPath } from '../src/server/engines/local/label-font';
import { assembleFilm, type FilmPart, type FilmPlan } from '../src/server/media/film-assembly';
import { resolveFfmpeg } from '../src/server/media/ffmpeg';

const run = promisify(execFile);
const env = readEnv();
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const binaries = resolveFfmpeg({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH }, env.PATH);
const dir = mkdtempSync(path.join(tmpdir(), 'bench-film-'));

async function take(index: number): Promise<string> {
  const file = path.join(dir, `take-${index}.mp4`);
  const size = index === 4 ? '720x1280' : '1280x720';
  await run(binaries.ffmpeg, [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=s=${size}:r=24:d=6.5`],
    ...['-f', 'lavfi', '-i', `sine=f=${220 + 40 * index}:d=6.5`, '-c:v', 'libx264', '-preset', 'veryfast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return file;
}

try {
  const takes = await Promise.all(Array.from({ length: 10 }, (_, index) => take(index)));
  const bed = path.join(dir, 'bed.wav');
  await run(binaries.ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=110:d=20,volume=-18dB', bed]);
  const parts: FilmPart[] = [
    { kind: 'card', text: 'Ten shots', seconds: 2, background: '#1e1b4b' },
    ...takes.map((file) => ({ kind: 'shot' as const, file, start: 0, end: 6.45, hasAudio: true })),
  ];
  const plan: FilmPlan = {
    width: 1280,
    height: 720,
    fps: 24,
    fontFile: labelFontPath(),
    parts,
    transitions: ['cut', ...Array.from({ length: 9 }, () => 'crossfade' as const)],
    transitionSeconds: 0.5,
    bed,
  };
  for (let round = 1; round <= ROUNDS; round += 1) {
    const started = performance.now();
    const seconds = await assembleFilm(plan, {
      binaries,
      workDir: dir,
      output: path.join(dir, 'film.mp4'),
      signal: AbortSignal.timeout(600_000),
      timeoutMs: 600_000,
    });
    const wall = (performance.now() - started) / 1000;
    process.stdout.write(
      `round ${round}: a ${seconds} s film exported in ${wall.toFixed(1)} s: ${(wall / seconds).toFixed(2)}x its length\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
