import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// Measuring rendered pictures: one frame (or a source image scaled) as grey bytes, and a few
// statistics over rectangles of it.

const run = promisify(execFile);

/** A grey picture: one byte per pixel, row after row. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Buffer;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Decodes one frame of a video (at `atSeconds`), or an image passed through `filter`, to grey bytes. */
export async function greyImage(
  ffmpeg: string,
  file: string,
  size: { width: number; height: number },
  options: { atSeconds?: number; filter?: string } = {},
): Promise<GreyImage> {
  const seek = options.atSeconds === undefined ? [] : ['-ss', String(options.atSeconds)];
  const filter = [options.filter, 'format=gray'].filter(Boolean).join(',');
  const { stdout } = await run(
    ffmpeg,
    ['-v', 'error', ...seek, '-i', file, '-frames:v', '1', '-vf', filter, '-f', 'rawvideo', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  if (stdout.length !== size.width * size.height) {
    throw new Error(`expected a ${size.width}x${size.height} grey frame, got ${stdout.length} bytes`);
  }
  return { ...size, pixels: stdout };
}

const at = (image: GreyImage, x: number, y: number) => image.pixels[y * image.width + x] ?? 0;

/** Mean absolute difference (0-255) of `a` over `rect` and `b` over the same rectangle moved by `offset`. */
export function meanDifference(a: GreyImage, b: GreyImage, rect: Rect, offset = { x: 0, y: 0 }): number {
  let sum = 0;
  for (let y = rect.y; y < rect.y + rect.height; y += 1) {
    for (let x = rect.x; x < rect.x + rect.width; x += 1)
      sum += Math.abs(at(a, x, y) - at(b, x + offset.x, y + offset.y));
  }
  return sum / (rect.width * rect.height);
}

/** The standard deviation of the grey levels over `rect`: near 0 on a smooth fill, high under text. */
export function contrast(image: GreyImage, rect: Rect): number {
  let sum = 0;
  let squares = 0;
  for (let y = rect.y; y < rect.y + rect.height; y += 1) {
    for (let x = rect.x; x < rect.x + rect.width; x += 1) {
      sum += at(image, x, y);
      squares += at(image, x, y) ** 2;
    }
  }
  const count = rect.width * rect.height;
  return Math.sqrt(Math.max(0, squares / count - (sum / count) ** 2));
}

/**
 * How much the picture changes from one line to the next, for each line: rows (`axis` 'y') or
 * columns ('x'). `steps[i]` is the mean absolute difference between line i and line i + 1.
 */
export function lineSteps(image: GreyImage, axis: 'x' | 'y'): number[] {
  const lines = axis === 'y' ? image.height : image.width;
  const length = axis === 'y' ? image.width : image.height;
  const steps: number[] = [];
  for (let i = 0; i + 1 < lines; i += 1) {
    let sum = 0;
    for (let j = 0; j < length; j += 1) {
      sum +=
        axis === 'y'
          ? Math.abs(at(image, j, i + 1) - at(image, j, i))
          : Math.abs(at(image, i + 1, j) - at(image, i, j));
    }
    steps.push(sum / length);
  }
  return steps;
}

/** Mean absolute horizontal and vertical gradient over `rect`: how much fine detail it holds. */
export function sharpness(image: GreyImage, rect: Rect): number {
  let sum = 0;
  for (let y = rect.y; y < rect.y + rect.height; y += 1) {
    for (let x = rect.x; x < rect.x + rect.width; x += 1) {
      sum += Math.abs(at(image, x + 1, y) - at(image, x, y)) + Math.abs(at(image, x, y + 1) - at(image, x, y));
    }
  }
  return sum / (rect.width * rect.height);
}
