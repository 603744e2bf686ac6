import { type UpscaleResolution, upscaleLines } from '../../shared/finishing';
import { type FfmpegBinaries, h264Output, runFfmpeg } from './ffmpeg';

// Upscale and smooth (issue 48) on this server: FFmpeg's Lanczos scaler to a taller picture and
// motion-compensated interpolation (minterpolate) to more frames a second. Neither is AI: they
// make no detail and no motion the source does not have, and the UI and the Content Credentials
// say so (UPSCALE_METHOD_WORDS).

/** What this server's upscale is, in words for people and for the Content Credentials' action. */
export const UPSCALE_METHOD_WORDS =
  'Upscaled with a Lanczos scaler and smoothed with motion-compensated frame interpolation (FFmpeg), not by AI';

/** The standard shapes a source within 1% of is taken as (854x480 is 16:9 made even). */
const SHAPES = [16 / 9, 9 / 16, 1];
const even = (n: number) => 2 * Math.round(n / 2);

/**
 * The picture size of a resolution for a source: its short side the resolution's lines (1080p: 1080),
 * the long side after the source's shape, a standard one when the source is within 1% of it.
 */
export function upscaledSize(
  source: { width: number; height: number },
  resolution: UpscaleResolution,
): { width: number; height: number } {
  const lines = upscaleLines(resolution);
  const ratio = source.width / source.height;
  const shape = SHAPES.find((standard) => Math.abs(standard - ratio) / standard < 0.01) ?? ratio;
  return shape >= 1 ? { width: even(lines * shape), height: lines } : { width: lines, height: even(lines / shape) };
}

export interface UpscalePlan {
  /** The picture's size after (upscaledSize); absent: as it is. */
  size?: { width: number; height: number };
  /** Frames a second after; absent: as it is. */
  fps?: number;
  /** The source's frame rate, kept when `fps` is absent. */
  sourceFps: number;
  /** The source picture's length in seconds (the result lasts as long). */
  seconds?: number;
}

/**
 * The FFmpeg filter for a plan: interpolation first (on the smaller picture, where it costs least),
 * then the scaler. Motion-compensated (mci) with overlapped blocks and bidirectional estimation:
 * FFmpeg's documented settings for smooth motion rather than blended frames.
 */
export function upscaleFilter(plan: UpscalePlan): string {
  const filters: string[] = [];
  if (plan.fps && plan.fps > plan.sourceFps) {
    // Interpolation ends at the source's last frame: that frame is held for its own time (tpad, then
    // fps fills the gap up to where the source ends), and the whole cut at the source's length.
    filters.push(`minterpolate=fps=${plan.fps}:mi_mode=mci:mc_mode=aobmc:me_mode=bidir:vsbmc=1`);
    filters.push(`tpad=stop_mode=clone:stop_duration=${Math.round((2 / plan.sourceFps) * 1000) / 1000}`);
    filters.push(`fps=${plan.fps}`);
    if (plan.seconds) filters.push(`trim=duration=${plan.seconds}`);
  } else if (plan.fps) filters.push(`fps=${plan.fps}`);
  if (plan.size) filters.push(`scale=${plan.size.width}:${plan.size.height}:flags=lanczos`);
  filters.push('setsar=1');
  return filters.join(',');
}

/** Upscales and smooths `input` into `output` (its sound copied as is), within the time limit. */
export async function upscaleVideo(
  binaries: Pick<FfmpegBinaries, 'ffmpeg' | 'watchdog'>,
  input: string,
  output: string,
  plan: UpscalePlan & { seconds: number },
  run: { signal: AbortSignal; timeoutMs: number; onProgress?: (fraction: number) => void },
): Promise<void> {
  await runFfmpeg(
    binaries.ffmpeg,
    [
      ...['-y', '-loglevel', 'error', '-i', input],
      ...['-map', '0:v:0', '-map', '0:a?', '-vf', upscaleFilter(plan)],
      ...h264Output({ crf: 18, fps: plan.fps ?? plan.sourceFps }),
      ...['-c:a', 'copy', '-movflags', '+faststart', output],
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
