import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colourName, lightingFor, measureImage, moodFor } from './image-stats';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const plain = (background: string, width = 64, height = 64) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('image statistics', () => {
  it('orders brightness white > grey > black, with no contrast in a plain image', async () => {
    const [white, grey, black] = await Promise.all(
      [plain('#ffffff'), plain('#808080'), plain('#000000')].map(async (p) => measureImage(await p)),
    );
    expect(white).toMatchObject({
      width: 64,
      height: 64,
      brightness: 255,
      contrast: 0,
      saturation: 0,
      warmth: 0,
      dominantColour: 'white',
    });
    expect(grey).toMatchObject({ brightness: 128, contrast: 0, dominantColour: 'grey' });
    expect(black).toMatchObject({ brightness: 0, contrast: 0, dominantColour: 'black' });
  });

  it('measures contrast as the spread of luma: black and white halves give about 127', async () => {
    const halves = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
      .composite([{ input: await plain('#ffffff', 32, 64), left: 32, top: 0 }])
      .png()
      .toBuffer();
    const stats = await measureImage(halves);
    expect(stats.brightness).toBeCloseTo(127.5, 0);
    expect(stats.contrast).toBeCloseTo(127.5, 0);
    expect(lightingFor(stats).type).toBe('high-contrast dramatic light');
    expect(moodFor(stats)).toBe('dramatic');
  });

  it('says low light and a dark mood for a plain dark image', async () => {
    const dark = await measureImage(await plain('#0a0a0f'));
    expect(dark.brightness).toBeLessThan(20);
    expect(lightingFor(dark)).toEqual({ type: 'low light' });
    expect(moodFor(dark)).toBe('moody');
  });

  it('tells warm from cool and names the colour', async () => {
    const orange = await measureImage(await plain('#ff8800'));
    expect(orange).toMatchObject({ saturation: 1, warmth: 255, dominantColour: 'orange' });
    expect(lightingFor(orange).type).toBe('warm golden light');
    expect(moodFor(orange)).toBe('vibrant');
    const blue = await measureImage(await plain('#50607a'));
    expect(blue.warmth).toBeLessThan(-25);
    expect(blue.dominantColour).toBe('blue');
    expect(lightingFor(blue).type).toBe('cool light');
    expect(moodFor(blue)).toBe('calm and cool');
  });

  it('measures real photographs at their shown size, the same every time', async () => {
    const coffee = await measureImage(fixture('coffee.png'));
    expect(coffee).toMatchObject({ width: 600, height: 400, dominantColour: 'red' });
    expect(coffee.warmth).toBeGreaterThan(25);
    expect(coffee.saturation).toBeGreaterThan(0.5);
    expect(await measureImage(fixture('coffee.png'))).toEqual(coffee);
    const rotated = await sharp(fixture('chelsea.png')).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await measureImage(rotated)).toMatchObject({ width: 300, height: 451 });
  });

  it('names colours plainly', () => {
    expect(colourName(240, 120, 30)).toBe('orange');
    expect(colourName(30, 80, 210)).toBe('blue');
    expect(colourName(10, 10, 12)).toBe('black');
    expect(colourName(90, 50, 20)).toBe('brown');
  });
});
