// The local image analysis of a 1920x1080 photograph: the detector's model load (once), a warm
// detection, the colour statistics and the whole analysis, and how long the event loop (every
// other request) waited at most meanwhile. Run: npm run bench:image-analysis
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import sharp from 'sharp';
import { analyzeLocally } from '../src/server/ai/image-analyzer';
import { measureImage } from '../src/server/ai/image-stats';
import { detectObjects, loadDetector } from '../src/server/ai/object-detector';

const photo = await sharp(readFileSync('tests/fixtures/astronaut.png'))
  .resize(1920, 1080, { fit: 'cover' })
  .jpeg({ quality: 90 })
  .toBuffer();
const time = async (label: string, run: () => Promise<unknown>, rounds = 1) => {
  const samples: number[] = [];
  let result: unknown;
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    result = await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `${label}: ${(samples[Math.floor(samples.length / 2)] ?? 0).toFixed(0)} ms${rounds > 1 ? ` (median of ${rounds})` : ''}`,
  );
  return result;
};
const note = await time('model load (TensorFlow.js WebAssembly + CenterNet)', () => loadDetector());
if (note) console.log(note);
await time('first detection after the load, 1920x1080', () => detectObjects(photo));
const found = await time('warm detection, 1920x1080', () => detectObjects(photo), 7);
console.log('  found:', JSON.stringify(found));
await time('colour statistics, 1920x1080', () => measureImage(photo), 7);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
await time('whole local analysis, 1920x1080', () => analyzeLocally(photo, detectObjects), 7);
// A stall is recorded when the loop next ticks.
await setTimeout(10);
delay.disable();
console.log(`  event loop's longest delay meanwhile: ${(delay.max / 1e6).toFixed(0)} ms`);
