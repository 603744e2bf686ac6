import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyzeLocally, noDetector } from './image-analyzer';
import { colourName, lightingFor, measureImage, moodFor } from './image-stats';
import { enhanceLocally } from './local-enhancer';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const plain = (colour: string, width = 64, height = 64) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('the local enhancer', () => {
  const request = { userPrompt: 'A fox running through snow', style: 'cinematic', duration: 'medium', mood: 'calm' };

  it("keeps the user's words and adds what a strong video prompt lacks, one improvement each", () => {
    const result = enhanceLocally(request);
    expect(result.enhancedPrompt.startsWith('A fox running through snow.')).toBe(true);
    expect(result.improvements.map((i) => i.split(':')[0])).toEqual([
      'Added shot type and framing',
      'Added camera movement',
      'Added lighting',
      'Added lens and style',
      'Added pacing',
    ]);
    for (const improvement of result.improvements) {
      expect(result.enhancedPrompt.toLowerCase()).toContain((improvement.split(': ')[1] ?? '').toLowerCase());
    }
    expect(result.confidence).toBeGreaterThanOrEqual(70);
    expect(result.confidence).toBeLessThan(95);
    expect(enhanceLocally(request)).toEqual(result);
  });

  it('adds nothing of a kind the user already gave (music included), and sound cues for energetic prompts', () => {
    const full = enhanceLocally({
      ...request,
      userPrompt: 'Close-up of a fox, slow dolly-in, golden hour light, 35mm lens, slow-motion, with music',
    });
    expect(full.improvements).toEqual([]);
    const energetic = enhanceLocally({ ...request, mood: 'energetic' });
    expect(energetic.improvements.some((i) => i.startsWith('Added sound cues'))).toBe(true);
    expect(enhanceLocally({ ...request, style: 'anime' }).enhancedPrompt).toMatch(/anime/i);
  });
});

describe('the local image analysis', () => {
  it('says low light for a plain dark image, and bright for a white one', async () => {
    const dark = await measureImage(await plain('#0a0a0f'));
    expect(lightingFor(dark).type).toBe('low light');
    expect(['moody', 'mysterious']).toContain(moodFor(dark));
    const white = await measureImage(await plain('#fafafa'));
    const grey = await measureImage(await plain('#808080'));
    expect(white.brightness).toBeGreaterThan(grey.brightness);
    expect(grey.brightness).toBeGreaterThan(dark.brightness);
    expect(lightingFor(white).type).toContain('bright');
  });

  it('names colours plainly', () => {
    expect(colourName(240, 120, 30)).toBe('orange');
    expect(colourName(30, 80, 210)).toBe('blue');
    expect(colourName(10, 10, 12)).toBe('black');
  });

  it('describes a real photograph and suggests a prompt, without inventing objects when there is no detector', async () => {
    const analysis = await analyzeLocally(fixture('chelsea.png'), noDetector);
    expect(analysis.sceneDescription).toMatch(/landscape image/);
    expect(analysis.objects).toEqual([]);
    expect(analysis.detectorNote).toContain('not available');
    expect(analysis.suggestedPrompt.length).toBeGreaterThan(20);
    const big = await sharp(fixture('astronaut.png')).resize(1920, 1080, { fit: 'cover' }).png().toBuffer();
    const started = performance.now();
    await analyzeLocally(big, noDetector);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
