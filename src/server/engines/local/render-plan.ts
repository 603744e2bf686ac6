import type { AdvancedSettings } from '../../../shared/generations';
import type { CameraMove } from '../../../shared/models';
import {
  type CameraMotion,
  lookFor,
  moodFor,
  motionFor,
  paletteFor,
  type Rgb,
  type SoundMood,
  type VideoLook,
} from './prompt-style';
import { framedImageFilter, type ImageSize } from './image-fill';
import { previewLabelFilter } from './preview-label';

export const FPS = 24;

export interface RenderRequest {
  prompt: string;
  duration: number;
  hasAudio: boolean;
  isEconomy: boolean;
  settings: AdvancedSettings;
  imagePath?: string;
  /** The image's size in pixels (read with ffprobe), required with `imagePath`. */
  imageSize?: ImageSize;
  /** Keyframes: the end frame; the clip crossfades from the image to it under the same motion. */
  endImagePath?: string;
  /** The end frame's size in pixels, required with `endImagePath`. */
  endImageSize?: ImageSize;
  videoPath?: string;
  audioPath?: string;
  /** The font of the preview label. */
  fontPath: string;
  outputPath: string;
}

/** 1280x720 (economy 854x480), or what the Advanced Settings ask for. */
export function frameSize(settings: AdvancedSettings, isEconomy: boolean): { width: number; height: number } {
  const lines =
    settings.resolution === '1080p'
      ? 1080
      : settings.resolution === '480p' || (isEconomy && !settings.resolution)
        ? 480
        : 720;
  const long = lines === 480 ? 854 : Math.round((lines * 16) / 9);
  if (settings.aspectRatio === '9:16') return { width: lines, height: long };
  if (settings.aspectRatio === '1:1') return { width: lines, height: lines };
  return { width: long, height: lines };
}

/** The generated scene is computed at an eighth of the frame size, then scaled up (cheap and smooth). */
function sceneSource(width: number, height: number): string {
  return `nullsrc=s=${Math.round(width / 8)}x${Math.round(height / 8)}:r=${FPS}`;
}

/**
 * A slowly moving three-colour plasma in the prompt's colours: two fields `m` and `n` (0 to 1) drawn
 * once each per pixel, then coloured through a table: `a` blended to `b` by m, then to `c` by n.
 * (geq evaluating the colour's formula for each of the three channels, m and n inside it, took
 * five times as long.) lut2 reads each field as 0-255 (`x` and `y`) in every plane of gbrp, whose
 * planes are green, blue and red in that order.
 */
function sceneFilter(palette: Rgb[], seed: number, width: number, height: number): string {
  const black: Rgb = [0, 0, 0];
  const a = palette[0] ?? black;
  const b = palette[1] ?? a;
  const c = palette[2] ?? b;
  const p = (seed % 1000) / 100;
  const m = `(sin(X/14+T*0.9+${p})+sin(Y/9-T*0.6)+sin((X+Y)/21+T*0.4)+3)/6`;
  const n = `(sin(X/23-T*0.5)+sin(Y/17+T*0.7+${p})+2)/4`;
  const field = (expression: string, label: string) =>
    `geq=lum='255*(${expression})',mergeplanes=0x000000:gbrp[${label}]`;
  const colour = (ch: 0 | 1 | 2) => `(${a[ch]}*(1-x/255)+${b[ch]}*x/255)*(1-y/255)+${c[ch]}*y/255`;
  return (
    `format=gray,split[scene_m][scene_n];` +
    `[scene_m]${field(m, 'scene_mf')};[scene_n]${field(n, 'scene_nf')};` +
    `[scene_mf][scene_nf]lut2=c0='${colour(1)}':c1='${colour(2)}':c2='${colour(0)}',` +
    `scale=${width}:${height}:flags=bicubic,vignette`
  );
}

/** Every move the local engine draws: the request's camera moves and the prompt's older names. */
export type Motion = CameraMotion | Exclude<CameraMove, 'dolly-in' | 'dolly-out'>;

/** A request's camera move as the local engine draws it (a dolly is a zoom here). */
export function motionOf(move: CameraMove): Motion {
  if (move === 'dolly-in') return 'zoom-in';
  if (move === 'dolly-out') return 'zoom-out';
  return move;
}

/**
 * zoompan's zoom and top-left corner for a move, `p` going from 0 to 1 over the clip (zoompan keeps
 * the corner inside the picture). Pans and tilts travel across a 1.2x view; an orbit circles it; a
 * crane rises while pulling back; handheld wobbles on a few incommensurate sines.
 */
function motionExpressions(motion: Motion, p: string): { z: string; x: string; y: string } {
  const cx = 'iw/2-iw/zoom/2';
  const cy = 'ih/2-ih/zoom/2';
  const spanX = '(iw-iw/zoom)';
  const spanY = '(ih-ih/zoom)';
  switch (motion) {
    case 'static':
      return { z: '1', x: '0', y: '0' };
    case 'zoom-in':
      return { z: `1+0.25*${p}`, x: cx, y: cy };
    case 'zoom-out':
      return { z: `1.25-0.25*${p}`, x: cx, y: cy };
    case 'push-in':
      return { z: `1+0.08*${p}`, x: cx, y: cy };
    case 'pan-left':
      return { z: '1.2', x: `${spanX}*(1-${p})`, y: cy };
    case 'pan-right':
      return { z: '1.2', x: `${spanX}*${p}`, y: cy };
    case 'tilt-up':
      return { z: '1.2', x: cx, y: `${spanY}*(1-${p})` };
    case 'tilt-down':
      return { z: '1.2', x: cx, y: `${spanY}*${p}` };
    case 'orbit':
      return { z: '1.25', x: `${spanX}*(0.5+0.5*sin(2*PI*${p}))`, y: `${spanY}*(0.5-0.3*cos(2*PI*${p}))` };
    case 'crane':
      return { z: `1.3-0.15*${p}`, x: cx, y: `${spanY}*(1-${p})` };
    case 'handheld':
      return {
        z: '1.1',
        x: `${spanX}*(0.5+0.3*sin(on*0.21)+0.15*sin(on*0.77))`,
        y: `${spanY}*(0.5+0.3*sin(on*0.29+1)+0.15*cos(on*0.93))`,
      };
  }
}

/** zoompan drawing a move: over a still image (`perInput` = frames, it makes the clip) or over moving frames (1). */
function zoompan(motion: Motion, frames: number, width: number, height: number, perInput: number): string {
  const { z, x, y } = motionExpressions(motion, `(on/${frames})`);
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${perInput}:s=${width}x${height}:fps=${FPS}`;
}

/**
 * Slow camera motion over a still image, framed over a blurred fill of itself when shapes differ.
 * A moving camera works on a canvas twice the frame's size (smoother motion, a sharp zoomed end);
 * a still one on the frame itself, so the image is scaled once, straight to its final size.
 */
function imageFilter(
  image: ImageSize,
  motion: Motion,
  frames: number,
  width: number,
  height: number,
  tag?: string,
): string {
  const oversample = motion === 'static' ? 1 : 2;
  const framed = framedImageFilter(image, { width, height }, oversample, tag);
  return `${framed},${zoompan(motion, frames, width, height, frames)}`;
}

/**
 * Keyframes: the start and end images under the same motion, the start alone for the first fifth of
 * the clip, the end alone for the last fifth, and between them the end fading in over the start.
 */
function keyframesFilter(
  sizes: { start: ImageSize; end: ImageSize },
  motion: Motion,
  frames: number,
  width: number,
  height: number,
): string {
  const seconds = frames / FPS;
  const hold = seconds / 5;
  return (
    `[0:v]${imageFilter(sizes.start, motion, frames, width, height, 'start')}[kstart];` +
    `[1:v]${imageFilter(sizes.end, motion, frames, width, height, 'end')},format=yuva420p,` +
    `fade=t=in:st=${hold.toFixed(3)}:d=${(seconds - 2 * hold).toFixed(3)}:alpha=1[kend];` +
    `[kstart][kend]overlay=0:0:shortest=1`
  );
}

const LOOKS: Record<VideoLook, string> = {
  'black-and-white': 'hue=s=0,eq=contrast=1.12',
  vintage: 'curves=preset=vintage,noise=alls=10:allf=t,vignette',
  warm: 'colorbalance=rs=0.12:gs=0.03:bs=-0.12:rm=0.08:bm=-0.08',
  cool: 'colorbalance=rs=-0.1:gs=0.0:bs=0.14:rm=-0.06:bm=0.1',
  neon: 'eq=saturation=1.9:contrast=1.2:brightness=0.02,unsharp=5:5:0.8',
  cinematic:
    'eq=contrast=1.08:saturation=0.9,drawbox=x=0:y=0:w=iw:h=ih*0.12:color=black:t=fill,' +
    'drawbox=x=0:y=ih*0.88:w=iw:h=ih*0.12:color=black:t=fill',
  natural: 'eq=contrast=1.03:saturation=1.05',
};

/** A video input looped or trimmed to length, cropped to the frame, with a look from the prompt. */
function videoFilter(look: VideoLook, width: number, height: number): string {
  return `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,fps=${FPS},${LOOKS[look]}`;
}

/** Chords (Hz) and pulse of each mood; two slightly detuned channels make it wide. */
const MOODS: Record<SoundMood, { notes: number[]; pulseHz: number; depth: number; bass: boolean }> = {
  calm: { notes: [220, 277.18, 329.63, 440], pulseHz: 0.25, depth: 0.35, bass: false },
  happy: { notes: [261.63, 329.63, 392, 523.25], pulseHz: 2, depth: 0.5, bass: false },
  energetic: { notes: [164.81, 246.94, 329.63, 415.3], pulseHz: 4, depth: 0.7, bass: true },
  dark: { notes: [110, 130.81, 164.81, 233.08], pulseHz: 0.5, depth: 0.4, bass: true },
};

export function soundtrackSource(mood: SoundMood, duration: number): string {
  const { notes, pulseHz, depth, bass } = MOODS[mood];
  const channel = (detune: number) => {
    const chord = notes
      .map((f, i) => `${(0.11 / (i + 1)).toFixed(3)}*sin(2*PI*${(f + detune).toFixed(2)}*t)`)
      .join('+');
    const pulse = `(${1 - depth}+${depth}*(0.5+0.5*sin(2*PI*${pulseHz}*t)))`;
    const kick = bass ? `+0.35*sin(2*PI*55*t)*exp(-mod(t,${(1 / Math.max(1, pulseHz / 2)).toFixed(3)})*10)` : '';
    return `(${chord})*${pulse}${kick}`;
  };
  return `aevalsrc=exprs='${channel(0)}|${channel(0.6)}':s=44100:d=${duration}`;
}

/**
 * The whole FFmpeg command line for one render: H.264 + AAC in MP4 (yuv420p, faststart) of
 * exactly `duration` seconds, no audio stream when audio is off.
 */
export function buildFfmpegArgs(request: RenderRequest): string[] {
  const { width, height } = frameSize(request.settings, request.isEconomy);
  const frames = request.duration * FPS;
  const args: string[] = ['-y', '-loglevel', 'error'];
  let visual: string;
  if (request.videoPath) {
    args.push('-stream_loop', '-1', '-i', request.videoPath);
    visual = `[0:v]${videoFilter(lookFor(request.prompt), width, height)}`;
  } else if (request.imagePath && request.endImagePath) {
    if (!request.imageSize || !request.endImageSize) throw new Error('the render plan needs the sizes of both images');
    args.push('-i', request.imagePath, '-i', request.endImagePath);
    const move = request.settings.cameraMove;
    const sizes = { start: request.imageSize, end: request.endImageSize };
    visual = keyframesFilter(sizes, move ? motionOf(move) : motionFor(request.prompt), frames, width, height);
  } else if (request.imagePath) {
    if (!request.imageSize) throw new Error('the render plan needs the size of the image');
    args.push('-i', request.imagePath);
    const move = request.settings.cameraMove;
    const motion = move ? motionOf(move) : motionFor(request.prompt);
    visual = `[0:v]${imageFilter(request.imageSize, motion, frames, width, height)}`;
  } else {
    args.push('-f', 'lavfi', '-i', sceneSource(width, height));
    visual = `[0:v]${sceneFilter(paletteFor(request.prompt), request.settings.seed ?? 0, width, height)}`;
  }
  // A camera move asked for over a video or a generated scene: the same motion over the moving frames.
  const move = request.settings.cameraMove;
  if (!request.imagePath && move && move !== 'static') {
    visual += `,${zoompan(motionOf(move), frames, width, height, 1)}`;
  }
  const graph = [`${visual},${previewLabelFilter(request.fontPath, width, height)},format=yuv420p[v]`];
  // The sound's input comes after the pictures' (two with keyframes).
  const soundInput = request.imagePath && request.endImagePath && !request.videoPath ? 2 : 1;
  if (request.hasAudio) {
    const fadeOut = `afade=t=out:st=${Math.max(0, request.duration - 1)}:d=1`;
    if (request.audioPath) {
      args.push('-i', request.audioPath);
      graph.push(`[${soundInput}:a]aresample=44100,apad,atrim=0:${request.duration},afade=t=in:d=0.05,${fadeOut}[a]`);
    } else {
      args.push('-f', 'lavfi', '-i', soundtrackSource(moodFor(request.prompt), request.duration));
      graph.push(`[${soundInput}:a]afade=t=in:d=1,${fadeOut}[a]`);
    }
  }
  args.push('-filter_complex', graph.join(';'), '-map', '[v]');
  if (request.hasAudio) args.push('-map', '[a]', '-c:a', 'aac', '-b:a', '128k', '-ac', '2');
  else args.push('-an');
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '22',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(FPS),
    '-frames:v',
    String(frames),
    '-t',
    String(request.duration),
    '-movflags',
    '+faststart',
    request.outputPath,
  );
  return args;
}
