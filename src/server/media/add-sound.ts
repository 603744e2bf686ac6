import { type FfmpegBinaries, runFfmpeg } from './ffmpeg';

// Add sound on this server (issue 48): an uploaded recording laid under a finished video, trimmed to
// the video's length and faded in and out, mixed under the video's own sound when it has some. The
// picture is copied as it is (no re-encoding); the sound is AAC, like every video Reelsmith writes.

/** The recording's fade in at its start, in seconds (no click where it begins). */
const FADE_IN_SECONDS = 0.05;
/** Its fade out before the video ends, in seconds, at most a quarter of the video. */
const FADE_OUT_SECONDS = 1;
/** Under a video's own sound the recording sits this many decibels lower, as a film's bed does. */
const UNDER_SOUND_DB = -12;

export interface AddSoundPlan {
  /** The video's length in seconds: the sound lasts exactly as long. */
  seconds: number;
  /** The video already has sound: the recording is mixed under it instead of becoming its sound. */
  videoHasAudio: boolean;
}

/** The FFmpeg filter graph for a plan: input 0 the video, input 1 the recording, `[sound]` the result. */
export function addSoundFilter(plan: AddSoundPlan): string {
  const seconds = Math.round(plan.seconds * 1000) / 1000;
  const fadeOut = Math.min(FADE_OUT_SECONDS, seconds / 4);
  const fadeStart = Math.round((seconds - fadeOut) * 1000) / 1000;
  // Trimmed to the video, silence after a shorter recording (apad to the whole length), then the fades.
  const track = [
    `[1:a:0]aresample=48000,aformat=channel_layouts=stereo,atrim=0:${seconds},asetpts=PTS-STARTPTS`,
    `apad=whole_dur=${seconds}`,
    `afade=t=in:d=${FADE_IN_SECONDS}`,
    `afade=t=out:st=${fadeStart}:d=${fadeOut}`,
  ].join(',');
  if (!plan.videoHasAudio) return `${track}[sound]`;
  return [
    `${track},volume=${UNDER_SOUND_DB}dB[bed]`,
    `[0:a:0]aresample=48000,aformat=channel_layouts=stereo,apad=whole_dur=${seconds}[own]`,
    `[own][bed]amix=inputs=2:duration=first:normalize=0,atrim=0:${seconds}[sound]`,
  ].join(';');
}

/** Lays `recording` under `video` into `output`, within the time limit. */
export async function addSound(
  binaries: Pick<FfmpegBinaries, 'ffmpeg' | 'watchdog'>,
  files: { video: string; recording: string; output: string },
  plan: AddSoundPlan,
  run: { signal: AbortSignal; timeoutMs: number; onProgress?: (fraction: number) => void },
): Promise<void> {
  await runFfmpeg(
    binaries.ffmpeg,
    [
      ...['-y', '-loglevel', 'error', '-i', files.video, '-i', files.recording],
      ...['-filter_complex', addSoundFilter(plan), '-map', '0:v:0', '-map', '[sound]'],
      ...['-c:v', 'copy', '-c:a', 'aac', '-b:a', '192k', '-ar', '48000', '-t', String(plan.seconds)],
      ...['-movflags', '+faststart', files.output],
    ],
    {
      signal: run.signal,
      timeoutMs: run.timeoutMs,
      stallMs: 60_000,
      watchdog: binaries.watchdog,
      outputSeconds: plan.seconds,
      onProgress: run.onProgress,
    },
  );
}
