// Screening's cost (issue 43): the local models' load time and memory, one picture's screening (the
// classifier and the face detector, as an upload's completion runs them), one description's, and a
// finished video's frames next to the render itself, measured in the same run.
// Run: npm run bench:screening (BENCH_ROUNDS, default 10)
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyPicture, detectFaces, loadDetector } from '../src/server/ai/object-detector';
import { readEnv } from '../src/server/config';
import type { EngineContext, EngineJob } from '../src/server/engines/engine';
import { createLocalEngine } from '../src/server/engines/local/local-engine';
import { resolveFfmpeg } from '../src/server/media/ffmpeg';
import { sampleFrames } from '../src/server/media/sample-frames';
import { DEFAULT_TERMS } from '../src/server/moderation/default-terms';
import { createTermModerator } from '../src/server/moderation/term-moderator';
import { framesToScreen } from '../src/server/modules/moderation/moderation.service';

const env = readEnv();
const ROUNDS = Number(env.BENCH_ROUNDS ?? 10);
const binaries = resolveFfmpeg({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH }, env.PATH);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const before = process.memoryUsage().rss;
let started = performance.now();
const note = await loadDetector();
if (note) throw new Error(note);
console.log(
  `models (CenterNet, FaceBoxes, NSFWJS MobileNetV2) loaded in ${(performance.now() - started).toFixed(0)} ms; ` +
    `resident memory ${mb(process.memoryUsage().rss - before)} more`,
);

const photo = readFileSync('tests/fixtures/astronaut.png');
const pictures: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  started = performance.now();
  await Promise.all([classifyPicture(photo), detectFaces(photo)]);
  pictures.push(performance.now() - started);
}
console.log(
  `one picture (classifier + faces), astronaut.png 512x512: ${median(pictures).toFixed(0)} ms (median of ${ROUNDS})`,
);

const moderator = createTermModerator(DEFAULT_TERMS, { sexual: 'block', violence: 'block' });
const text = 'A slow zoom in on a lighthouse at sunset, waves crashing, warm golden light, '.repeat(25);
started = performance.now();
for (let round = 0; round < 1000; round += 1) moderator.screen(text);
console.log(
  `one description of ${text.length} characters: ${((performance.now() - started) / 1000).toFixed(3)} ms (mean of 1000)`,
);

// A 10 s 720p render, then its frames screened as the worker does.
const engine = createLocalEngine(binaries);
const renders: number[] = [];
const screenings: number[] = [];
for (let round = 0; round < Math.min(ROUNDS, 3); round += 1) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-screening-'));
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
  started = performance.now();
  const { filePath } = await engine.render(job, context);
  renders.push(performance.now() - started);
  started = performance.now();
  const frames = await sampleFrames(binaries, filePath, {
    durationSeconds: 10,
    count: framesToScreen(10),
    dir,
    signal: new AbortController().signal,
  });
  for (const frame of frames) await classifyPicture(readFileSync(frame));
  screenings.push(performance.now() - started);
  rmSync(dir, { recursive: true, force: true });
}
const ratio = median(screenings) / median(renders);
console.log(
  `10 s 720p local render: ${median(renders).toFixed(0)} ms; its ${framesToScreen(10)} frames screened in ` +
    `${median(screenings).toFixed(0)} ms (${(ratio * 100).toFixed(1)}% of the render)`,
);
process.exit(0);
