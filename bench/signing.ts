// Content Credentials' cost (issue 42): the time signing adds to a stored video and the memory it
// takes, next to the render itself, measured in the same run. Signing here is what the worker does
// after every render: sign (c2pa-rs in its worker thread, hashing the whole file) and read the signed
// file back to check it. Targets: under 5% of the render's time; peak memory bounded by the file.
// Run: npm run bench:signing (BENCH_ROUNDS, default 3; FFMPEG_PATH and FFPROBE_PATH as the server reads them)
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEnv } from '../src/server/config';
import type { EngineContext, EngineJob } from '../src/server/engines/engine';
import { createLocalEngine } from '../src/server/engines/local/local-engine';
import { resolveFfmpeg, runFfmpeg } from '../src/server/media/ffmpeg';
import { type ManifestPlan, readCredentials, signVideo } from '../src/server/provenance/c2pa';
import { makeInstallationIdentity } from '../src/server/provenance/identity';

const env = readEnv();
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const binaries = resolveFfmpeg({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH }, env.PATH);
const engine = createLocalEngine(binaries);
const identity = await makeInstallationIdentity('https://bench.example');
const photoHash = createHash('sha256').update(readFileSync('tests/fixtures/astronaut.png')).digest('hex');

/** The manifest a render gets: the actions, the generation assertion, one uploaded input by its hash. */
const plan: ManifestPlan = {
  definition: {
    claim_generator_info: [{ name: 'Reelsmith', version: 'bench' }],
    title: 'bench.mp4',
    format: 'video/mp4',
    assertions: [
      {
        label: 'c2pa.actions.v2',
        data: {
          actions: [
            {
              action: 'c2pa.created',
              when: new Date().toISOString(),
              digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia',
              softwareAgent: { name: 'Local preview engine' },
            },
          ],
        },
      },
      { label: 'com.reelsmith.generation', data: { installation: 'https://bench.example', model: 'local' } },
    ],
  },
  ingredients: [
    { title: 'image upload', format: 'image/png', relationship: 'inputTo', instance_id: `sha256:${photoHash}` },
  ],
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Signs and reads back `file`, sampling the process's resident memory (the c2pa thread is in it). */
async function timeSigning(file: string): Promise<{ ms: number; peakBytes: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const started = performance.now();
  const signed = `${file}.signed.mp4`;
  await signVideo(file, signed, plan, identity);
  const store = await readCredentials({ file: signed }, 'video/mp4');
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (!store) throw new Error('the signed file carries no manifest');
  rmSync(signed, { force: true });
  return { ms, peakBytes: peak - before };
}

async function renderLocal(dir: string): Promise<{ file: string; ms: number }> {
  const job: EngineJob = {
    id: 'bench',
    prompt: 'A purple and gold aurora over the sea',
    duration: 10,
    hasAudio: true,
    isEconomy: false,
    settings: { resolution: '720p' },
    inputs: {},
    providerTaskId: null,
  };
  const context: EngineContext = {
    workDir: dir,
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    saveProviderTask: async () => undefined,
  };
  const started = performance.now();
  const { filePath } = await engine.render(job, context);
  return { file: filePath, ms: performance.now() - started };
}

/** A 60 s 720p clip with sound, made by FFmpeg: the render a long provider video stands for. */
async function renderMinute(dir: string): Promise<{ file: string; ms: number }> {
  const file = path.join(dir, 'minute.mp4');
  const started = performance.now();
  await runFfmpeg(
    binaries.ffmpeg,
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=24:duration=60',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=60',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-movflags',
      '+faststart',
      file,
    ],
    { timeoutMs: 600_000, signal: new AbortController().signal, watchdog: binaries.watchdog },
  );
  return { file, ms: performance.now() - started };
}

// The c2pa thread and its WebAssembly start once per process: timed apart, not counted per video.
const warm = mkdtempSync(path.join(tmpdir(), 'bench-sign-'));
const first = await renderLocal(warm);
const start = performance.now();
await signVideo(first.file, path.join(warm, 'warm.mp4'), plan, identity);
console.log(`c2pa worker thread and WebAssembly start, once per process: ${(performance.now() - start).toFixed(0)} ms`);
rmSync(warm, { recursive: true, force: true });

const baseline = process.memoryUsage().rss;
for (const [name, render] of [
  ['10 s 720p local render', renderLocal],
  ['60 s 720p file', renderMinute],
] as const) {
  const renders: number[] = [];
  const signs: number[] = [];
  const peaks: number[] = [];
  let size = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-sign-'));
    const made = await render(dir);
    size = statSync(made.file).size;
    const signing = await timeSigning(made.file);
    renders.push(made.ms);
    signs.push(signing.ms);
    peaks.push(signing.peakBytes);
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = median(signs) / median(renders);
  const peak = Math.max(...peaks);
  // The c2pa thread's WebAssembly memory never shrinks: what stays after the video is stored.
  const kept = process.memoryUsage().rss - baseline;
  console.log(
    `${name} (${mb(size)}): render ${median(renders).toFixed(0)} ms, sign + read back ${median(signs).toFixed(0)} ms ` +
      `(median of ${ROUNDS}): ${(ratio * 100).toFixed(2)}% of the render ${ratio < 0.05 ? '(under 5%)' : '(OVER 5%)'}; ` +
      `peak memory added ${mb(peak)} = ${(peak / size).toFixed(2)}x the file; ${mb(kept)} kept by the process after`,
  );
}
process.exit(0);
