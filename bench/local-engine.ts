// The local engine's wall time for a 10 s 720p render next to the bare FFmpeg command it runs,
// measured in the same run, alternating, several times. Target: the engine at most 1.15x.
// Run: npm run bench:local-engine (FFMPEG_PATH and FFPROBE_PATH as the server reads them; BENCH_ROUNDS, default 3)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readEnv } from '../src/server/config';
import type { EngineContext, EngineJob } from '../src/server/engines/engine';
import { ffmpegArgv, resolveFfmpeg } from '../src/server/media/ffmpeg';
import { createLocalEngine, imageSizeOf, renderRequestFor } from '../src/server/engines/local/local-engine';
import { buildFfmpegArgs } from '../src/server/engines/local/render-plan';

const env = readEnv();
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const binaries = resolveFfmpeg({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH }, env.PATH);
const engine = createLocalEngine(binaries);
const png = readFileSync('tests/fixtures/astronaut.png');

const cases: { name: string; job: EngineJob }[] = [
  {
    name: 'image + soundtrack',
    job: {
      id: 'bench',
      prompt: 'Slowly zoom in on the astronaut, epic music',
      duration: 10,
      hasAudio: true,
      isEconomy: false,
      settings: {},
      inputs: { image: { contentType: 'image/png', url: 'http://unused', open: async () => Readable.from([png]) } },
      providerTaskId: null,
    },
  },
  {
    name: 'generated scene + soundtrack',
    job: {
      id: 'bench',
      prompt: 'A purple and gold aurora over the sea',
      duration: 10,
      hasAudio: true,
      isEconomy: false,
      settings: {},
      inputs: {},
      providerTaskId: null,
    },
  },
];

function runBare(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binaries.ffmpeg, ffmpegArgv(args), { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
}

async function timeBare(job: EngineJob): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-bare-'));
  const files = job.inputs.image ? { image: path.join(dir, 'input-image') } : {};
  if (files.image) writeFileSync(files.image, png);
  const request = renderRequestFor(job, files, dir, {
    image: files.image ? await imageSizeOf(binaries, files.image) : undefined,
  });
  const args = buildFfmpegArgs(request);
  const started = performance.now();
  await runBare(args);
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function timeEngine(job: EngineJob): Promise<number> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'bench-engine-'));
  const context: EngineContext = {
    workDir,
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    saveProviderTask: async () => undefined,
  };
  const started = performance.now();
  await engine.render(job, context);
  const ms = performance.now() - started;
  rmSync(workDir, { recursive: true, force: true });
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(`FFmpeg: ${binaries.ffmpeg}; ${ROUNDS} rounds each, alternating`);
for (const { name, job } of cases) {
  const bare: number[] = [];
  const wrapped: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    bare.push(await timeBare(job));
    wrapped.push(await timeEngine(job));
  }
  const ratio = median(wrapped) / median(bare);
  console.log(
    `${name}: bare FFmpeg ${median(bare).toFixed(0)} ms, local engine ${median(wrapped).toFixed(0)} ms (median), ratio ${ratio.toFixed(3)}x ${ratio <= 1.15 ? '(within 1.15x)' : '(OVER 1.15x)'}`,
  );
}
