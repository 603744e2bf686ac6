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

export const FPS = 24;
/** The prompt shows as a caption for this many seconds, fading out over the last 0.6. */
export const CAPTION_SECONDS = 4;

export interface RenderRequest {
  prompt: string;
  duration: number;
  hasAudio: boolean;
  isEconomy: boolean;
  settings: AdvancedSettings;
  imagePath?: string;
  /** Keyframes: the end frame; the clip crossfades from the image to it under the same motion. */
  endImagePath?: string;
  videoPath?: string;
  audioPath?: string;
  /** A text file holding the wrapped caption (a file avoids every escaping problem). */
  captionPath: string;
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

/** The prompt wrapped for the caption: at most three lines, ellipsis beyond. */
export function wrapCaption(prompt: string, maxChars: number): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= maxChars) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = word.length > maxChars ? `${word.slice(0, maxChars - 1)}…` : word;
    if (lines.length === 3) break;
  }
  if (lines.length < 3 && line) lines.push(line);
  const clipped = lines.slice(0, 3);
  const shown = clipped.join(' ').length;
  if (shown < prompt.replace(/\s+/g, ' ').trim().length && clipped.length > 0) {
    const last = clipped.length - 1;
    clipped[last] = `${(clipped[last] ?? '').slice(0, maxChars - 1).replace(/\s+\S*$/, '')}…`;
  }
  return clipped.join('\n');
}

const rgbLerp = (a: Rgb, b: Rgb, m: string, channel: 0 | 1 | 2) => `${a[channel]}*(1-${m})+${b[channel]}*${m}`;

/** The generated scene is computed at an eighth of the frame size, then scaled up (cheap and smooth). */
function sceneSource(width: number, height: number): string {
  return `nullsrc=s=${Math.round(width / 8)}x${Math.round(height / 8)}:r=${FPS}`;
}

/** A slowly moving three-colour plasma in the prompt's colours. */
function sceneFilter(palette: Rgb[], seed: number, width: number, height: number): string {
  const black: Rgb = [0, 0, 0];
  const a = palette[0] ?? black;
  const b = palette[1] ?? a;
  const c = palette[2] ?? b;
  const p = (seed % 1000) / 100;
  const m = `((sin(X/14+T*0.9+${p})+sin(Y/9-T*0.6)+sin((X+Y)/21+T*0.4)+3)/6)`;
  const n = `((sin(X/23-T*0.5)+sin(Y/17+T*0.7+${p})+2)/4)`;
  const channel = (ch: 0 | 1 | 2) => `(${rgbLerp(a, b, m, ch)})*(1-${n})+${c[ch]}*${n}`;
  return (
    `format=gbrp,` +
    `geq=r='${channel(0)}':g='${channel(1)}':b='${channel(2)}',` +
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

/** Slow camera motion over a still image, over a blurred fill of itself when shapes differ. */
function imageFilter(motion: Motion, frames: number, width: number, height: number): string {
  const [w2, h2] = [width * 2, height * 2];
  return (
    `split[bgsrc][fgsrc];` +
    `[bgsrc]scale=${w2}:${h2}:force_original_aspect_ratio=increase,crop=${w2}:${h2},boxblur=20:2,eq=brightness=-0.08[bg];` +
    `[fgsrc]scale=${w2}:${h2}:force_original_aspect_ratio=decrease[fg];` +
    `[bg][fg]overlay=(W-w)/2:(H-h)/2,setsar=1,` +
    zoompan(motion, frames, width, height, frames)
  );
}

/**
 * Keyframes: the start and end images under the same motion, the start alone for the first fifth of
 * the clip, the end alone for the last fifth, and between them the end fading in over the start.
 */
function keyframesFilter(motion: Motion, frames: number, width: number, height: number): string {
  const seconds = frames / FPS;
  const hold = seconds / 5;
  return (
    `[0:v]${imageFilter(motion, frames, width, height)}[kstart];` +
    `[1:v]${imageFilter(motion, frames, width, height)},format=yuva420p,` +
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

/** Paths go inside single quotes in the filter graph; a quote in a path could not be escaped there. */
function quotedPath(file: string): string {
  if (file.includes("'")) throw new Error(`unsupported path for FFmpeg filters: ${file}`);
  return `'${file}'`;
}

function captionFilter(request: RenderRequest, width: number, height: number): string {
  const size = Math.round(Math.min(width, height) / 21);
  const fadeStart = CAPTION_SECONDS - 0.6;
  return (
    `drawtext=fontfile=${quotedPath(request.fontPath)}:textfile=${quotedPath(request.captionPath)}:expansion=none:fontcolor=white:` +
    `fontsize=${size}:line_spacing=${Math.round(size / 4)}:x=(w-text_w)/2:y=h-text_h-${Math.round(height / 11)}:` +
    `box=1:boxcolor=black@0.45:boxborderw=${Math.round(size / 2)}:` +
    `alpha='if(lt(t,${fadeStart}),1,max(0,(${CAPTION_SECONDS}-t)/0.6))':enable='lt(t,${CAPTION_SECONDS})'`
  );
}

/** Characters per caption line for a frame width. */
export function captionLineLength(width: number, height: number): number {
  const size = Math.min(width, height) / 21;
  return Math.max(16, Math.floor((width * 0.8) / (size * 0.62)));
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
    args.push('-i', request.imagePath, '-i', request.endImagePath);
    const move = request.settings.cameraMove;
    visual = keyframesFilter(move ? motionOf(move) : motionFor(request.prompt), frames, width, height);
  } else if (request.imagePath) {
    args.push('-i', request.imagePath);
    const move = request.settings.cameraMove;
    visual = `[0:v]${imageFilter(move ? motionOf(move) : motionFor(request.prompt), frames, width, height)}`;
  } else {
    args.push('-f', 'lavfi', '-i', sceneSource(width, height));
    visual = `[0:v]${sceneFilter(paletteFor(request.prompt), request.settings.seed ?? 0, width, height)}`;
  }
  // A camera move asked for over a video or a generated scene: the same motion over the moving frames.
  const move = request.settings.cameraMove;
  if (!request.imagePath && move && move !== 'static') {
    visual += `,${zoompan(motionOf(move), frames, width, height, 1)}`;
  }
  const graph = [`${visual},${captionFilter(request, width, height)},format=yuv420p[v]`];
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
