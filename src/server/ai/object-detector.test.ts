import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyzeLocally } from './image-analyzer';
import { detectObjects } from './object-detector';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const confidenceOf = async (file: string, name: string) =>
  (await detectObjects(fixture(file))).objects.find((o) => o.name === name)?.confidence ?? 0;

describe('the local object detector (CenterNet on TensorFlow.js WebAssembly)', () => {
  it('finds the person in astronaut.png, the cat in chelsea.png and the cup in coffee.png', { timeout: 60_000 }, async () => {
    expect(await confidenceOf('astronaut.png', 'person')).toBeGreaterThan(40);
    expect(await confidenceOf('chelsea.png', 'cat')).toBeGreaterThan(40);
    expect(await confidenceOf('coffee.png', 'cup')).toBeGreaterThan(40);
  });

  it('finds nothing in a plain black image', async () => {
    const black = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer();
    expect(await detectObjects(black)).toEqual({ objects: [], note: null });
  });

  it('names the objects in the analysis of a real photograph, with their confidence', async () => {
    const analysis = await analyzeLocally(fixture('chelsea.png'), detectObjects);
    expect(analysis.objects[0]).toMatchObject({ name: 'cat' });
    expect(analysis.sceneDescription).toContain('a cat');
    expect(analysis.suggestedPrompt).toMatch(/^A cat/);
  });
});
