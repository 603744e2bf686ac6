import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FfmpegBinaries, h264Output, runFfmpeg } from './ffmpeg';
import { runMediaProcess } from './processes';

/**
 * A film from its parts (issue 47): the takes of a storyboard's shots, each trimmed, and title cards,
 * joined in order with a cut, a crossfade or a fade through black, captions over shots, and an audio
 * bed under the shots' own sound, into one MP4 of one size, frame rate and codec. Shots of another
 * shape are framed whole over a blurred fill of themselves (as the local engine frames a picture),
 * never cropped. The sound is brought to a loudness target (EBU R128, measured then corrected in a
 * second, audio-only pass) and the bed fades out at the end.
 */

/** The film's integrated loudness (EBU R128 / ITU-R BS.1770), the level most streaming and social platforms play at. */
export const FILM_LOUDNESS_LUFS = -16;
/** The highest true peak allowed after normalising, with room for lossy encoding. */
export const FILM_TRUE_PEAK_DBTP = -1.5;
/** The loudness range loudnorm aims for (its default). */
const FILM_LOUDNESS_RANGE_LU = 11;
/** The bed sits this far under the shots' own sound before the whole is normalised. */
export const BED_GAIN_DB = -12;
/** The bed fades out over this long at the film's end (shorter films: a quarter of their length). */
export const BED_FADE_SECONDS = 2;
/** The sound's sample rate and layout, for every part. */
const SAMPLE_RATE = 48_000;
/** Text stays inside this share of the frame on every side (the title-safe area, which also keeps clear of phone apps' buttons on 9:16). */
export const SAFE_MARGIN = 0.1;

export type FilmTransition = 'cut' | 'crossfade' | 'fade-black';

/** One of a shot's takes, trimmed: its file and the part of it that is used, in seconds. */
export interface FilmShot {
  kind: 'shot';
  file: string;
  start: number;
  end: number;
  /** Whether the take has sound (its silence is made otherwise). */
  hasAudio: boolean;
  /** Words over the shot, along its bottom, inside the safe area. */
  caption?: string;
}

/** A title card: words over a plain colour. */
export interface FilmCard {
  kind: 'card';
  text: string;
  seconds: number;
  /** `#rrggbb`. */
  background: string;
}

export type FilmPart = FilmShot | FilmCard;

export interface FilmPlan {
  width: number;
  height: number;
  fps: number;
  parts: FilmPart[];
  /** How each part meets the next: one fewer than the parts. */
  transitions: FilmTransition[];
  /** How long a crossfade or fade through black lasts (the two parts overlap by it). */
  transitionSeconds: number;
  /** A music or voice track under the whole film, or none. */
  bed?: string;
  /** The font the cards and captions are drawn in. */
  fontFile: string;
}

export interface AssembleOptions {
  binaries: Pick<FfmpegBinaries, 'ffmpeg' | 'watchdog'>;
  /** A work folder of this export's own: the cards' texts and the unnormalised render go there. */
  workDir: string;
  output: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** From 0 to 1 as the film is written (the render is most of it; the sound's pass the rest). */
  onProgress?: (fraction: number) => void;
}

/** What a part's length is read from (a film's parts as the request names them, or as the worker has them). */
export type TimedPart = { kind: 'shot'; start: number; end: number } | { kind: 'card'; seconds: number };
/** What a plan's length and soundness are read from. */
export interface TimedPlan {
  parts: readonly TimedPart[];
  transitions: readonly FilmTransition[];
  transitionSeconds: number;
}

const partSeconds = (part: TimedPart) => (part.kind === 'shot' ? part.end - part.start : part.seconds);

/** The film's length: every part's, less the overlap of each crossfade and fade through black. */
export function filmSeconds(plan: TimedPlan): number {
  const parts = plan.parts.reduce((sum, part) => sum + partSeconds(part), 0);
  const overlaps = plan.transitions.filter((transition) => transition !== 'cut').length * plan.transitionSeconds;
  return Math.round((parts - overlaps) * 1000) / 1000;
}

/** Why this plan cannot be made, in a sentence, or null. */
export function planProblem(plan: TimedPlan): string | null {
  if (plan.parts.length === 0) return 'A film needs at least one shot or card.';
  if (plan.transitions.length !== plan.parts.length - 1)
    return `${plan.parts.length} parts need ${plan.parts.length - 1} transitions, not ${plan.transitions.length}.`;
  for (const [index, part] of plan.parts.entries()) {
    const seconds = partSeconds(part);
    if (!(seconds > 0)) return `Part ${index + 1} has no length: its end must come after its start.`;
    const joins = [plan.transitions[index - 1], plan.transitions[index]].filter((t) => t && t !== 'cut').length;
    // Each side of a part may overlap its neighbour; both overlaps together must leave some of it.
    if (joins * plan.transitionSeconds >= seconds)
      return `Part ${index + 1} lasts ${seconds} s, too short for its ${plan.transitionSeconds} s transitions.`;
  }
  return null;
}

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/** FFmpeg filter-graph option text: a path or colour quoted for the graph's parser. */
const quoted = (value: string) => `'${value.replace(/\\/g, '/').replace(/'/g, "'\\''")}'`;

/**
 * Words broken into lines that fit the safe area at this font size (a glyph of DejaVu Sans is about
 * 0.55 of its size wide on average), so drawtext, which never wraps, keeps inside the frame.
 */
export function wrapWords(text: string, width: number, fontSize: number): string {
  const perLine = Math.max(8, Math.floor((width * (1 - 2 * SAFE_MARGIN)) / (fontSize * 0.55)));
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const chunks = word.match(new RegExp(`.{1,${perLine}}`, 'gu')) ?? [word];
      for (const chunk of chunks) {
        if (line && line.length + 1 + chunk.length > perLine) {
          lines.push(line);
          line = chunk;
        } else line = line ? `${line} ${chunk}` : chunk;
      }
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** A part's picture brought to the film's frame: the whole of it, over a blurred fill of itself where its shape differs. */
function framed(plan: FilmPlan, tag: string): string {
  const { width: w, height: h } = plan;
  const [sw, sh] = [even(w / 8), even(h / 8)];
  return (
    `split[${tag}bg][${tag}fg];` +
    `[${tag}bg]scale=${sw}:${sh}:force_original_aspect_ratio=increase,crop=${sw}:${sh},boxblur=${Math.max(1, Math.floor(Math.min(sw, sh) / 10))}:3,` +
    `eq=brightness=-0.07:saturation=0.85,scale=${w}:${h}:flags=bicubic[${tag}fill];` +
    `[${tag}fg]scale=${w}:${h}:force_original_aspect_ratio=decrease:flags=lanczos,setsar=1[${tag}fit];` +
    `[${tag}fill][${tag}fit]overlay=(W-w)/2:(H-h)/2`
  );
}

/** drawtext for words in the safe area: centred on a card, along the bottom over a shot. */
function words(plan: FilmPlan, textFile: string, where: 'centre' | 'bottom'): string {
  const size = Math.round(Math.min(plan.width, plan.height) * (where === 'centre' ? 0.075 : 0.05));
  const y = where === 'centre' ? '(h-text_h)/2' : `h-text_h-${Math.round(plan.height * SAFE_MARGIN)}`;
  const box = where === 'bottom' ? `:box=1:boxcolor=black@0.45:boxborderw=${Math.round(size * 0.4)}` : '';
  return (
    `drawtext=fontfile=${quoted(plan.fontFile)}:textfile=${quoted(textFile)}:fontcolor=white:fontsize=${size}` +
    `:line_spacing=${Math.round(size * 0.3)}:x=(w-text_w)/2:y=${y}${box}`
  );
}

/** The render's arguments: every part brought to one frame, rate and sound, joined, with the bed under it. */
async function renderArgs(plan: FilmPlan, workDir: string, output: string): Promise<string[]> {
  const args: string[] = ['-y'];
  const graph: string[] = [];
  const common = `fps=${plan.fps},format=yuv420p,setsar=1,settb=AVTB`;
  const silence = (seconds: number) => `aevalsrc=0:c=stereo:s=${SAMPLE_RATE}:d=${seconds}`;
  const sound = `aformat=sample_fmts=fltp:sample_rates=${SAMPLE_RATE}:channel_layouts=stereo`;
  let inputs = 0;
  for (const [index, part] of plan.parts.entries()) {
    const seconds = partSeconds(part);
    if (part.kind === 'shot') {
      const input = inputs++;
      args.push('-i', part.file);
      let caption = '';
      if (part.caption?.trim()) {
        const file = path.join(workDir, `caption-${index}.txt`);
        await writeFile(file, wrapWords(part.caption.trim(), plan.width, Math.min(plan.width, plan.height) * 0.05));
        caption = `,${words(plan, file, 'bottom')}`;
      }
      graph.push(
        `[${input}:v]tpad=stop_mode=clone:stop_duration=1,trim=start=${part.start}:end=${part.end},setpts=PTS-STARTPTS,${framed(plan, `p${index}`)}${caption},${common}[v${index}]`,
      );
      graph.push(
        part.hasAudio
          ? `[${input}:a]atrim=start=${part.start}:end=${part.end},asetpts=PTS-STARTPTS,${sound},apad,atrim=0:${seconds}[a${index}]`
          : `${silence(seconds)},${sound}[a${index}]`,
      );
    } else {
      const file = path.join(workDir, `card-${index}.txt`);
      await writeFile(file, wrapWords(part.text.trim(), plan.width, Math.min(plan.width, plan.height) * 0.075));
      graph.push(
        `color=c=${part.background}:s=${plan.width}x${plan.height}:r=${plan.fps}:d=${seconds},${words(plan, file, 'centre')},${common}[v${index}]`,
      );
      graph.push(`${silence(seconds)},${sound}[a${index}]`);
    }
  }

  // Joined left to right; `length` is the film so far, where the next crossfade starts before its end.
  let length = partSeconds(plan.parts[0] as FilmPart);
  let [video, audio] = ['[v0]', '[a0]'];
  for (const [index, transition] of plan.transitions.entries()) {
    const next = index + 1;
    const [v, a] = [`[vj${next}]`, `[aj${next}]`];
    if (transition === 'cut') {
      graph.push(`${video}[v${next}]concat=n=2:v=1:a=0${v}`, `${audio}[a${next}]concat=n=2:v=0:a=1${a}`);
      length += partSeconds(plan.parts[next] as FilmPart);
    } else {
      const kind = transition === 'crossfade' ? 'fade' : 'fadeblack';
      const offset = Math.round((length - plan.transitionSeconds) * 1000) / 1000;
      graph.push(
        `${video}[v${next}]xfade=transition=${kind}:duration=${plan.transitionSeconds}:offset=${offset}${v}`,
        `${audio}[a${next}]acrossfade=d=${plan.transitionSeconds}:c1=tri:c2=tri${a}`,
      );
      length += partSeconds(plan.parts[next] as FilmPart) - plan.transitionSeconds;
    }
    [video, audio] = [v, a];
  }

  if (plan.bed) {
    const input = inputs++;
    // Looped, so a short track lasts the film; cut to its length and faded at its end.
    args.push('-stream_loop', '-1', '-i', plan.bed);
    const fade = Math.min(BED_FADE_SECONDS, length / 4);
    graph.push(
      `[${input}:a]${sound},atrim=0:${length},asetpts=PTS-STARTPTS,volume=${BED_GAIN_DB}dB,afade=t=out:st=${length - fade}:d=${fade}[bed]`,
      `${audio}[bed]amix=inputs=2:duration=first:dropout_transition=0:normalize=0[mixed]`,
    );
    audio = '[mixed]';
  }
  args.push('-filter_complex', graph.join(';'), '-map', video, '-map', audio);
  args.push(
    ...h264Output({ crf: 20, fps: plan.fps }),
    // Lossless sound until it is normalised: it is encoded once, at the end.
    '-c:a',
    'pcm_s24le',
    '-t',
    String(length),
    output,
  );
  return args;
}

interface Loudness {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

const LOUDNORM = `loudnorm=I=${FILM_LOUDNESS_LUFS}:TP=${FILM_TRUE_PEAK_DBTP}:LRA=${FILM_LOUDNESS_RANGE_LU}`;

/** The sound's loudness as loudnorm measures it (its first pass), or null for silence. */
async function measureLoudness(ffmpeg: string, file: string, options: AssembleOptions): Promise<Loudness | null> {
  const { code, stderr } = await runMediaProcess(
    ffmpeg,
    ['-hide_banner', '-nostdin', '-i', file, '-vn', '-af', `${LOUDNORM}:print_format=json`, '-f', 'null', '-'],
    { timeoutMs: options.timeoutMs, signal: options.signal, watchdog: options.binaries.watchdog },
  );
  if (code !== 0) throw new Error(`ffmpeg could not measure the film's loudness: ${stderr.trim().split('\n').pop()}`);
  const json = stderr.slice(stderr.lastIndexOf('{'), stderr.lastIndexOf('}') + 1);
  const measured = JSON.parse(json) as Loudness;
  return Number.isFinite(Number(measured.input_i)) && Number(measured.input_i) > -70 ? measured : null;
}

/**
 * Makes the film: renders every part into one picture and one sound (lossless sound), measures the
 * sound's loudness, and writes the MP4 with the picture copied and the sound brought to
 * FILM_LOUDNESS_LUFS (linear gain where the peaks allow, loudnorm's gentle limiter where not).
 * A silent film stays silent. Answers the film's length in seconds.
 */
export async function assembleFilm(plan: FilmPlan, options: AssembleOptions): Promise<number> {
  const problem = planProblem(plan);
  if (problem) throw new Error(problem);
  const seconds = filmSeconds(plan);
  const raw = path.join(options.workDir, 'film-raw.mov');
  const { ffmpeg, watchdog } = options.binaries;
  await runFfmpeg(ffmpeg, await renderArgs(plan, options.workDir, raw), {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    watchdog,
    stallMs: 60_000,
    outputSeconds: seconds,
    onProgress: (fraction) => options.onProgress?.(fraction * 0.9),
  });
  const measured = await measureLoudness(ffmpeg, raw, options);
  const normalise = measured
    ? `${LOUDNORM}:measured_I=${measured.input_i}:measured_TP=${measured.input_tp}:measured_LRA=${measured.input_lra}` +
      `:measured_thresh=${measured.input_thresh}:offset=${measured.target_offset}:linear=true,aresample=${SAMPLE_RATE}`
    : 'anull';
  await runFfmpeg(
    ffmpeg,
    [
      '-y',
      '-i',
      raw,
      '-map',
      '0:v',
      '-map',
      '0:a',
      '-c:v',
      'copy',
      '-af',
      normalise,
      '-c:a',
      'aac',
      '-b:a',
      '192k',
      '-movflags',
      '+faststart',
      options.output,
    ],
    { signal: options.signal, timeoutMs: options.timeoutMs, watchdog },
  );
  options.onProgress?.(1);
  return seconds;
}
