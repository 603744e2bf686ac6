// The local image analysis of a 1920x1080 photograph: model load (once), a warm detection, the
// colour statistics and the whole analysis. Run: npm run bench:image-analysis
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { analyzeLocally } from '../src/server/ai/image-analyzer';
import { measureImage } from '../src/server/ai/image-stats';
import { detectObjects } from '../src/server/ai/object-detector';

const photo = await sharp(readFileSync('tests/fixtures/astronaut.png')).resize(1920, 1080, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
const time = async (label: string, run: () => Promise<unknown>, rounds = 1) => {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  console.log(`${label}: ${(samples[Math.floor(samples.length / 2)] ?? 0).toFixed(0)} ms${rounds > 1 ? ` (median of ${rounds})` : ''}`);
};
await time('first detection, model load included', () => detectObjects(photo));
await time('warm detection, 1920x1080', () => detectObjects(photo), 5);
await time('colour statistics, 1920x1080', () => measureImage(photo), 5);
await time('whole local analysis, 1920x1080', () => analyzeLocally(photo, detectObjects), 5);
