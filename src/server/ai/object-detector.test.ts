import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { detectObjects, loadDetector } from './object-detector';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));

describe('the local object detector (CenterNet on TensorFlow.js WebAssembly)', () => {
  it('loads once, from the files in node_modules, for every concurrent caller', { timeout: 60_000 }, async () => {
    expect(await Promise.all([loadDetector(), loadDetector()])).toEqual([null, null]);
  });

  it.each([
    ['astronaut.png', 'person'],
    ['chelsea.png', 'cat'],
    ['coffee.png', 'cup'],
  ])('finds what %s shows: a %s', { timeout: 60_000 }, async (file, name) => {
    const { objects, note } = await detectObjects(fixture(file));
    expect(note).toBeNull();
    expect(objects[0]?.name).toBe(name);
    expect(objects[0]?.confidence).toBeGreaterThan(30);
    for (const object of objects) {
      expect(Number.isInteger(object.confidence)).toBe(true);
      expect(object.confidence).toBeGreaterThanOrEqual(30);
      expect(object.confidence).toBeLessThanOrEqual(100);
    }
    expect(new Set(objects.map((o) => o.name)).size).toBe(objects.length);
  });

  it('reads JPEG and WebP as well as PNG, at any size', { timeout: 60_000 }, async () => {
    const cat = fixture('chelsea.png');
    const jpeg = await sharp(cat).resize(1920, 1080, { fit: 'fill' }).jpeg().toBuffer();
    const webp = await sharp(cat).webp().toBuffer();
    expect((await detectObjects(jpeg)).objects.map((o) => o.name)).toContain('cat');
    expect((await detectObjects(webp)).objects.map((o) => o.name)).toContain('cat');
  });

  it('finds nothing in a plain black image', { timeout: 60_000 }, async () => {
    const black = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer();
    expect(await detectObjects(black)).toEqual({ objects: [], note: null });
  });

  it('rejects bytes that are not an image', async () => {
    await expect(detectObjects(Buffer.from('not an image'))).rejects.toThrow();
  });

  it('lists no objects, and says why, when the model cannot load', async () => {
    vi.resetModules();
    vi.doMock('@tensorflow/tfjs-converter', () => ({
      loadGraphModel: () => Promise.reject(new Error('the weights are unreadable')),
    }));
    try {
      const fresh = await import('./object-detector');
      fresh.warmUpDetector();
      const black = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
      const result = await fresh.detectObjects(black);
      expect(result.objects).toEqual([]);
      expect(result.note).toMatch(/could not start.*the weights are unreadable/);
    } finally {
      vi.doUnmock('@tensorflow/tfjs-converter');
      vi.resetModules();
    }
  });
});
