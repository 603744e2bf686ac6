// The local upscale and interpolation (issue 48): a 10 s 480p clip at 24 fps with sound made
// 1080p at 60 fps (motion-compensated interpolation, then the Lanczos scaler). Prints the wall time
// of each round as a ratio to the clip's length (1.0 = as long as the clip plays).
// Run: npm run bench:upscale (FFMPEG_PATH as the server reads it; BENCH_ROUNDS, default 2)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readEnv } from '../src/server/config';
import { resolveFfmpeg } from '../src/server/media/ffmpeg';
import { upscaledSize, upscaleVideo } from '../src/server/media/upscale';

const run = promisify(execFile);
const env = readEnv();
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const SECONDS = 10;
const binaries = resolveFfmpeg({ ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH }, env.PATH);
const dir = mkdtempSync(path.join(tmpdir(), 'bench-upscale-'));

try {
  const source = path.join(dir, 'source.mp4');
  await run(binaries.ffmpeg, [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=s=854x480:r=24:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=f=330:d=${SECONDS}`, '-c:v', 'libx264', '-preset', 'veryfast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source],
  ]);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const started = performance.now();
    await upscaleVideo(
      binaries,
      source,
      path.join(dir, `upscaled-${round}.mp4`),
      { size: upscaledSize({ width: 854, height: 480 }, '1080p'), fps: 60, sourceFps: 24, seconds: SECONDS },
      { signal: new AbortController().signal, timeoutMs: 30 * 60_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `round ${round}: a ${SECONDS} s 480p clip made 1080p at 60 fps in ${seconds.toFixed(1)} s: ${(seconds / SECONDS).toFixed(2)}x its length`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
