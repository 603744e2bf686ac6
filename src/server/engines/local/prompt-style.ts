/**
 * Reads a prompt's words into the local engine's choices: colours, camera motion, the look of a
 * video input and the mood of a synthesized soundtrack. Pure and deterministic.
 */

export type Rgb = readonly [number, number, number];

const COLOURS: Record<string, Rgb> = {
  red: [200, 30, 45],
  crimson: [160, 20, 50],
  orange: [240, 120, 30],
  amber: [245, 160, 40],
  yellow: [240, 210, 50],
  gold: [212, 170, 55],
  golden: [212, 170, 55],
  green: [40, 170, 80],
  emerald: [20, 150, 100],
  teal: [20, 140, 140],
  cyan: [30, 200, 220],
  turquoise: [40, 200, 190],
  blue: [30, 80, 210],
  azure: [40, 130, 230],
  navy: [15, 25, 90],
  purple: [120, 40, 170],
  violet: [140, 70, 210],
  indigo: [70, 40, 160],
  pink: [240, 100, 170],
  magenta: [220, 30, 170],
  white: [235, 235, 240],
  silver: [180, 185, 195],
  gray: [110, 115, 125],
  grey: [110, 115, 125],
  black: [12, 12, 18],
  brown: [120, 75, 40],
};

/** Scenes whose colours are well known stand in for colour words. */
const THEMES: Record<string, Rgb[]> = {
  sunset: [
    [250, 120, 40],
    [220, 60, 110],
    [90, 40, 140],
  ],
  sunrise: [
    [250, 170, 80],
    [240, 110, 120],
    [120, 150, 220],
  ],
  ocean: [
    [10, 60, 140],
    [20, 150, 170],
    [200, 235, 240],
  ],
  sea: [
    [10, 60, 140],
    [20, 150, 170],
    [200, 235, 240],
  ],
  forest: [
    [20, 70, 35],
    [60, 140, 60],
    [180, 200, 120],
  ],
  fire: [
    [200, 30, 20],
    [250, 130, 20],
    [255, 210, 80],
  ],
  night: [
    [8, 10, 35],
    [30, 40, 100],
    [90, 70, 160],
  ],
  space: [
    [5, 5, 20],
    [40, 20, 90],
    [120, 60, 180],
  ],
  neon: [
    [240, 20, 180],
    [30, 220, 240],
    [60, 20, 120],
  ],
  snow: [
    [220, 230, 245],
    [160, 190, 230],
    [250, 250, 255],
  ],
  desert: [
    [220, 170, 100],
    [200, 120, 60],
    [250, 220, 160],
  ],
};

const DEFAULT_PALETTE: Rgb[] = [
  [40, 30, 110],
  [20, 130, 150],
  [120, 60, 190],
];

function wordsOf(prompt: string): string[] {
  return prompt.toLowerCase().match(/[a-z]+/g) ?? [];
}

function hasAny(words: string[], text: string, needles: readonly string[]): boolean {
  return needles.some((needle) => (needle.includes(' ') ? text.includes(needle) : words.includes(needle)));
}

/** Two or three colours for the generated scene, in the order the prompt names them. */
export function paletteFor(prompt: string): Rgb[] {
  const words = wordsOf(prompt);
  const named: Rgb[] = [];
  for (const word of words) {
    const theme = THEMES[word];
    if (theme && named.length === 0) return theme;
    const colour = COLOURS[word];
    if (colour && !named.includes(colour)) named.push(colour);
  }
  if (named.length === 0) return DEFAULT_PALETTE;
  if (named.length === 1) {
    const [only] = named as [Rgb];
    // One colour: a darker and a lighter shade of it make the movement visible.
    return [shade(only, 0.35), only, shade(only, 1.35)];
  }
  return named.slice(0, 3);
}

function shade([r, g, b]: Rgb, factor: number): Rgb {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v * factor)));
  return [clamp(r), clamp(g), clamp(b)];
}

export type CameraMotion = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'push-in';

/** The camera move over a still image; a gentle push-in when the prompt names none. */
export function motionFor(prompt: string): CameraMotion {
  const text = prompt.toLowerCase();
  const words = wordsOf(prompt);
  if (hasAny(words, text, ['zoom out', 'zooming out', 'pull back', 'pulls back', 'dolly out', 'reveal']))
    return 'zoom-out';
  if (hasAny(words, text, ['zoom in', 'zooming in', 'zooms in', 'push in', 'dolly in', 'close up', 'closer']))
    return 'zoom-in';
  if (hasAny(words, text, ['pan left', 'pans left', 'panning left', 'to the left', 'leftward'])) return 'pan-left';
  if (
    hasAny(words, text, ['pan right', 'pans right', 'panning right', 'to the right', 'rightward', 'pan', 'panning'])
  ) {
    return 'pan-right';
  }
  return 'push-in';
}

export type VideoLook = 'black-and-white' | 'vintage' | 'warm' | 'cool' | 'neon' | 'cinematic' | 'natural';

/** The look given to a video input (the local video-to-video). */
export function lookFor(prompt: string): VideoLook {
  const text = prompt.toLowerCase();
  const words = wordsOf(prompt);
  if (
    hasAny(words, text, ['black and white', 'black & white', 'monochrome', 'grayscale', 'greyscale', 'noir', 'b&w'])
  ) {
    return 'black-and-white';
  }
  if (hasAny(words, text, ['vintage', 'retro', 'old film', 'sepia', 'nostalgic', 'film grain', 'super 8']))
    return 'vintage';
  if (hasAny(words, text, ['neon', 'cyberpunk', 'synthwave', 'vaporwave', 'glowing'])) return 'neon';
  if (hasAny(words, text, ['cinematic', 'letterbox', 'widescreen', 'movie', 'film', 'epic'])) return 'cinematic';
  if (hasAny(words, text, ['warm', 'golden', 'sunset', 'sunny', 'cozy', 'autumn'])) return 'warm';
  if (hasAny(words, text, ['cool', 'cold', 'icy', 'winter', 'blue', 'moonlight', 'teal'])) return 'cool';
  return 'natural';
}

export type SoundMood = 'calm' | 'energetic' | 'dark' | 'happy';

/** The mood of the synthesized soundtrack. */
export function moodFor(prompt: string): SoundMood {
  const text = prompt.toLowerCase();
  const words = wordsOf(prompt);
  if (
    hasAny(words, text, ['dark', 'horror', 'scary', 'mysterious', 'mystery', 'creepy', 'ominous', 'storm', 'thriller'])
  ) {
    return 'dark';
  }
  if (
    hasAny(words, text, [
      'energetic',
      'action',
      'fast',
      'dance',
      'party',
      'race',
      'racing',
      'epic',
      'intense',
      'explosion',
    ])
  ) {
    return 'energetic';
  }
  if (
    hasAny(words, text, ['happy', 'joy', 'joyful', 'fun', 'playful', 'cheerful', 'bright', 'celebration', 'birthday'])
  ) {
    return 'happy';
  }
  return 'calm';
}
