import { readFile, rm } from 'node:fs/promises';
import { type FfmpegBinaries, runFfmpeg } from './ffmpeg';

/** One picture's decode and resize (a 512 px frame: tens of milliseconds). */
const HASH_MS = 30_000;

/**
 * A picture's difference hash (dHash, 64 bits as 16 hex digits): the picture as 9 x 8 grey pixels
 * (FFmpeg's area scaler), one bit per neighbouring pair in each row, set when the left one is
 * darker. Re-encoding, resizing and small colour changes move few bits; another picture moves about
 * half. Null when the picture says too little to be recognised (a flat or evenly shaded frame, whose
 * hash would match every other one: fewer than 12 or more than 52 bits set).
 */
export async function differenceHash(
  binaries: FfmpegBinaries,
  picture: string,
  options: { signal: AbortSignal },
): Promise<string | null> {
  const out = `${picture}.dhash.gray`;
  try {
    await runFfmpeg(
      binaries.ffmpeg,
      [
        '-y',
        '-loglevel',
        'error',
        '-i',
        picture,
        '-frames:v',
        '1',
        '-vf',
        'scale=9:8:flags=area,format=gray',
        '-f',
        'rawvideo',
        out,
      ],
      { signal: options.signal, timeoutMs: HASH_MS, watchdog: binaries.watchdog },
    );
    const pixels = await readFile(out);
    if (pixels.length < 72) return null;
    let bits = 0n;
    let set = 0;
    for (let y = 0; y < 8; y += 1)
      for (let x = 0; x < 8; x += 1) {
        const darker = (pixels[y * 9 + x] ?? 0) < (pixels[y * 9 + x + 1] ?? 0);
        bits = (bits << 1n) | (darker ? 1n : 0n);
        if (darker) set += 1;
      }
    if (set < 12 || set > 52) return null;
    return bits.toString(16).padStart(16, '0');
  } finally {
    await rm(out, { force: true });
  }
}

/** How many bits two hashes differ in. */
export function hashDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff > 0n) {
    count += Number(diff & 1n);
    diff >>= 1n;
  }
  return count;
}

/** Hashes this close (of 64 bits) are the same picture. */
export const SAME_PICTURE_DISTANCE = 10;
