import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { CredentialsReport } from '../../shared/provenance';
import type { ObjectStorage } from '../storage';
import { AbortedError, EngineError } from '../engines/engine';
import { type FfmpegBinaries, probeMedia, runFfmpeg } from '../media/ffmpeg';

/** Limits of the output check's own FFmpeg runs (a 20 s video: well under a second each). */
const PROBE_MS = 60_000;
const REMUX_MS = 120_000;
const POSTER_MS = 60_000;
/** Drawing the visible label re-encodes the video: as long as a render's own encode, at most. */
const LABEL_MS = 300_000;
const LABEL_STALL_MS = 60_000;

export interface StoredOutput {
  outputKey: string;
  posterKey: string | null;
  durationSeconds: number;
  /** What the stored video's Content Credentials say. */
  credentials: CredentialsReport;
}

/**
 * Checks an engine's file, removes its sound when the user asked for a silent video, makes a
 * poster frame, signs the video's Content Credentials, and stores both. The duration is measured from the file itself.
 */
export async function storeOutput(
  binaries: FfmpegBinaries,
  storage: ObjectStorage,
  file: string,
  options: {
    hasAudio: boolean;
    keys: { video: string; poster: string };
    signal: AbortSignal;
    /** Screens the video before anything is stored: throws when the content policy stops it. */
    screen: (video: string, durationSeconds: number) => Promise<unknown>;
    /** A picture (PNG) drawn small in the top right corner of the video before it is signed; null: none. */
    label?: string | null;
    /** Embeds the video's Content Credentials: answers the signed file, which is stored byte for byte. */
    sign: (video: string) => Promise<{ file: string; credentials: CredentialsReport }>;
  },
): Promise<StoredOutput> {
  let video = file;
  const probing = { timeoutMs: PROBE_MS, signal: options.signal, watchdog: binaries.watchdog };
  let info = await probeMedia(binaries.ffprobe, video, probing).catch((error: unknown) => {
    if (options.signal.aborted) throw error;
    return null;
  });
  if (!info?.video) throw new EngineError('The video engine returned a file that is not a playable video.', true);
  if (!options.hasAudio && info.audio) {
    video = path.join(path.dirname(file), 'output-silent.mp4');
    await runFfmpeg(
      binaries.ffmpeg,
      ['-y', '-loglevel', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-an', '-movflags', '+faststart', video],
      {
        signal: options.signal,
        timeoutMs: REMUX_MS,
        watchdog: binaries.watchdog,
      },
    );
    info = await probeMedia(binaries.ffprobe, video, probing);
  }
  // Screened before anything else is made of it: a stopped video leaves no file, poster or signature.
  await options.screen(video, info.durationSeconds);
  if (options.signal.aborted) throw new AbortedError();
  if (options.label && info.video) {
    video = await drawLabel(binaries, video, options.label, {
      height: info.video.height,
      durationSeconds: info.durationSeconds,
      signal: options.signal,
    });
  }
  const poster = path.join(path.dirname(file), 'poster.jpg');
  const at = Math.min(1, info.durationSeconds / 2).toFixed(2);
  const posterMade = await runFfmpeg(
    binaries.ffmpeg,
    ['-y', '-loglevel', 'error', '-ss', at, '-i', video, '-frames:v', '1', '-vf', 'scale=640:-2', '-q:v', '4', poster],
    { signal: options.signal, timeoutMs: POSTER_MS, watchdog: binaries.watchdog },
  ).then(
    () => true,
    () => false,
  );
  if (options.signal.aborted) throw new AbortedError();
  // Signed last: nothing re-encodes the file after its credentials are embedded.
  const signed = await options.sign(video);
  video = signed.file;
  if (options.signal.aborted) throw new AbortedError();
  await storage.put(options.keys.video, createReadStream(video), 'video/mp4');
  if (posterMade) await storage.put(options.keys.poster, createReadStream(poster), 'image/jpeg');
  return {
    outputKey: options.keys.video,
    posterKey: posterMade ? options.keys.poster : null,
    durationSeconds: info.durationSeconds,
    credentials: signed.credentials,
  };
}

/**
 * The operator's visible "AI" mark: the label picture scaled to 7% of the video's height, 3% in from
 * the top right corner, the sound copied as it is.
 */
async function drawLabel(
  binaries: FfmpegBinaries,
  video: string,
  label: string,
  options: { height: number; durationSeconds: number; signal: AbortSignal },
): Promise<string> {
  const out = path.join(path.dirname(video), 'output-labelled.mp4');
  const size = Math.max(16, Math.round(options.height * 0.07));
  const margin = Math.round(options.height * 0.03);
  await runFfmpeg(
    binaries.ffmpeg,
    [
      '-y',
      '-loglevel',
      'error',
      '-i',
      video,
      '-i',
      label,
      '-filter_complex',
      `[1:v]scale=-2:${size}[mark];[0:v][mark]overlay=x=W-w-${margin}:y=${margin},format=yuv420p[v]`,
      '-map',
      '[v]',
      '-map',
      '0:a?',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '18',
      '-c:a',
      'copy',
      '-movflags',
      '+faststart',
      out,
    ],
    {
      signal: options.signal,
      timeoutMs: LABEL_MS,
      stallMs: LABEL_STALL_MS,
      watchdog: binaries.watchdog,
      outputSeconds: options.durationSeconds,
    },
  ).catch((error: unknown) => {
    if (options.signal.aborted) throw error;
    throw new EngineError('Could not draw the AI label on the video.', true, String(error));
  });
  return out;
}
