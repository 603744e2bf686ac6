import sharp from 'sharp';

export interface ImageStats {
  width: number;
  height: number;
  /** Mean luma, 0-255. */
  brightness: number;
  /** Standard deviation of luma. */
  contrast: number;
  /** Mean saturation, 0-1. */
  saturation: number;
  /** Mean red minus mean blue, -255..255: positive is warm. */
  warmth: number;
  dominantColour: string;
}

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
  const [name] = COLOUR_NAMES.reduce((best, entry) => (Math.abs(entry[1] - hue) < Math.abs(best[1] - hue) ? entry : best));
  if (name === 'orange' && light < 0.35) return 'brown';
  return light < 0.25 ? `dark ${name}` : name;
}

/** Brightness, contrast, saturation, warmth and the dominant colour, from a 256-px copy. */
export async function measureImage(image: Buffer): Promise<ImageStats> {
  const source = sharp(image, { failOn: 'error' });
  const meta = await source.metadata();
  const small = sharp(image).rotate().resize({ width: 256, height: 256, fit: 'inside' }).removeAlpha().toColourspace('srgb');
  const [rgb, grey] = await Promise.all([small.clone().stats(), small.clone().greyscale().stats()]);
  const [r, g, b] = rgb.channels.map((c) => c.mean) as [number, number, number];
  const luma = grey.channels[0];
  const { data, info } = await small.clone().raw().toBuffer({ resolveWithObject: true });
  let saturation = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const max = Math.max(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0);
    const min = Math.min(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0);
    saturation += max === 0 ? 0 : (max - min) / max;
  }
  const { dominant } = rgb;
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  return {
    width,
    height,
    brightness: luma?.mean ?? 0,
    contrast: luma?.stdev ?? 0,
    saturation: saturation / (data.length / info.channels),
    warmth: r - b,
    dominantColour: colourName(dominant.r, dominant.g, dominant.b) || colourName(r, g, b),
  };
}

/** The lighting a photo shows, from its statistics. */
export function lightingFor(stats: ImageStats): { type: string } {
  if (stats.brightness < 60) return { type: 'low light' };
  if (stats.contrast > 75) return { type: 'high-contrast dramatic light' };
  if (stats.brightness > 185) return { type: 'bright, high-key light' };
  if (stats.warmth > 25) return { type: 'warm golden light' };
  if (stats.warmth < -25) return { type: 'cool light' };
  if (stats.contrast < 35) return { type: 'soft diffused light' };
  return { type: 'natural balanced light' };
}

/** The mood a photo's light and colour suggest. */
export function moodFor(stats: ImageStats): string {
  if (stats.brightness < 60) return stats.contrast > 40 ? 'mysterious' : 'moody';
  if (stats.saturation > 0.45 && stats.brightness > 120) return 'vibrant';
  if (stats.contrast > 75) return 'dramatic';
  if (stats.warmth > 25) return 'warm and inviting';
  if (stats.warmth < -25) return 'calm and cool';
  return stats.saturation < 0.15 ? 'quiet and understated' : 'calm';
}
