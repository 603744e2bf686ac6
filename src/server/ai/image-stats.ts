import { loadSharp } from './load-sharp';

export interface ImageStats {
  /** Pixel size of the image as shown (EXIF orientation applied). */
  width: number;
  height: number;
  /** Mean luma (Rec. 601), 0-255. */
  brightness: number;
  /** Standard deviation of luma, 0-~128. */
  contrast: number;
  /** Mean HSV saturation, 0-1; near-black pixels, whose hue is noise, count for less. */
  saturation: number;
  /** Mean red minus mean blue, -255..255: positive is warm. */
  warmth: number;
  /** A plain colour name ('orange', 'dark grey', ...) for the most frequent colour. */
  dominantColour: string;
}

/** The statistics are taken from a copy at most this many pixels on its longer side. */
const SAMPLE_SIZE = 256;
/** Below this value (0-255) a pixel's saturation is scaled down: its hue is mostly noise. */
const DARK_VALUE = 32;

const COLOUR_NAMES: [name: string, hue: number][] = [
  ['red', 0],
  ['orange', 30],
  ['yellow', 55],
  ['green', 120],
  ['teal', 175],
  ['blue', 215],
  ['purple', 275],
  ['pink', 330],
  ['red', 360],
];

/** A plain name for an RGB colour ('orange', 'dark grey', ...). */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const light = (max + min) / 2 / 255;
  const chroma = (max - min) / 255;
  if (chroma < 0.12) return light < 0.2 ? 'black' : light < 0.45 ? 'dark grey' : light < 0.8 ? 'grey' : 'white';
  let hue = 0;
  if (max === r) hue = ((g - b) / (max - min)) * 60;
  else if (max === g) hue = ((b - r) / (max - min)) * 60 + 120;
  else hue = ((r - g) / (max - min)) * 60 + 240;
  if (hue < 0) hue += 360;
  const [name] = COLOUR_NAMES.reduce((best, entry) =>
    Math.abs(entry[1] - hue) < Math.abs(best[1] - hue) ? entry : best,
  );
  if (name === 'orange' && light < 0.35) return 'brown';
  return light < 0.25 ? `dark ${name}` : name;
}

/**
 * Brightness, contrast, saturation, warmth and the dominant colour. The image is decoded once into
 * a copy at most 256 px on a side (sRGB, transparency flattened onto white); luma and saturation
 * are summed over its pixels, and sharp's `stats()` of that copy gives the channel means and the
 * dominant colour. Throws when sharp cannot decode the image.
 */
export async function measureImage(image: Buffer): Promise<ImageStats> {
  const sharp = await loadSharp();
  const decoder = sharp(image, { failOn: 'error' });
  const [meta, small] = await Promise.all([
    decoder.metadata(),
    decoder
      .clone()
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize({ width: SAMPLE_SIZE, height: SAMPLE_SIZE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]);
  const { data, info } = small;
  // stats() reads its input, not the result of a pipeline, so it is given the small copy.
  const rgb = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).stats();
  const pixels = info.width * info.height;
  let lumaSum = 0;
  let lumaSquares = 0;
  let saturationSum = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const r = data[i] ?? 0;
    const g = data[i + 1] ?? 0;
    const b = data[i + 2] ?? 0;
    const luma = 0.299 * r + 0.587 * g + 0.114 * b;
    lumaSum += luma;
    lumaSquares += luma * luma;
    const max = Math.max(r, g, b);
    const chroma = max - Math.min(r, g, b);
    saturationSum += max === 0 ? 0 : chroma / Math.max(max, DARK_VALUE);
  }
  const brightness = lumaSum / pixels;
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  const [red, , blue] = rgb.channels.map((channel) => channel.mean);
  const width = meta.autoOrient?.width ?? meta.width ?? info.width;
  const height = meta.autoOrient?.height ?? meta.height ?? info.height;
  return {
    width,
    height,
    brightness: round(brightness, 1),
    contrast: round(Math.sqrt(Math.max(0, lumaSquares / pixels - brightness * brightness)), 1),
    saturation: round(saturationSum / pixels, 3),
    warmth: round((red ?? 0) - (blue ?? 0), 1),
    dominantColour: colourName(rgb.dominant.r, rgb.dominant.g, rgb.dominant.b),
  };
}

/** The lighting a photo shows, from its statistics (first rule that fits). */
export function lightingFor(stats: ImageStats): { type: string } {
  if (stats.brightness < 60) return { type: 'low light' };
  if (stats.contrast > 75) return { type: 'high-contrast dramatic light' };
  if (stats.brightness > 185) return { type: stats.saturation > 0.25 ? 'bright daylight' : 'bright, high-key light' };
  if (stats.warmth > 25) return { type: 'warm golden light' };
  if (stats.warmth < -25) return { type: 'cool light' };
  if (stats.contrast < 35) return { type: 'soft diffused light' };
  return { type: 'natural balanced light' };
}

/** The mood a photo's light and colour suggest (first rule that fits). */
export function moodFor(stats: ImageStats): string {
  if (stats.brightness < 60) return stats.contrast > 40 ? 'mysterious' : 'moody';
  if (stats.saturation > 0.5 && stats.brightness > 90) return 'vibrant';
  if (stats.contrast > 75) return 'dramatic';
  if (stats.warmth > 25) return 'warm and inviting';
  if (stats.warmth < -25) return 'calm and cool';
  return stats.saturation < 0.15 ? 'quiet and understated' : 'calm';
}
