import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binaries } from '../../../tests/support/media';
import { runFfmpeg } from './ffmpeg';
import { differenceHash, hashDistance, SAME_PICTURE_DISTANCE } from './perceptual-hash';

// The perceptual hash that remembers taken-down videos (issue 44), on the shared photographs.

const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-dhash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => {
  const copy = path.join(dir, name);
  copyFileSync(path.resolve(import.meta.dirname, `../../../tests/fixtures/${name}`), copy);
  return copy;
};
const hash = async (file: string) => {
  const found = await differenceHash(binaries, file, { signal: AbortSignal.timeout(30_000) });
  if (!found) throw new Error(`no hash for ${file}`);
  return found;
};

describe('the difference hash', () => {
  it('knows a photograph again after it is shrunk, re-encoded as JPEG and brightened, and tells it from others', async () => {
    const cat = await hash(fixture('chelsea.png'));
    expect(cat).toMatch(/^[0-9a-f]{16}$/);
    const changed = path.join(dir, 'changed.jpg');
    await runFfmpeg(
      binaries.ffmpeg,
      [
        '-y',
        '-loglevel',
        'error',
        '-i',
        fixture('chelsea.png'),
        '-vf',
        'scale=200:-2,eq=brightness=0.06',
        '-q:v',
        '9',
        changed,
      ],
      { signal: AbortSignal.timeout(30_000), timeoutMs: 30_000 },
    );
    expect(hashDistance(cat, await hash(changed))).toBeLessThanOrEqual(SAME_PICTURE_DISTANCE);
    for (const other of ['coffee.png', 'astronaut.png'])
      expect(hashDistance(cat, await hash(fixture(other))), other).toBeGreaterThan(SAME_PICTURE_DISTANCE * 2);
  });

  it('declines a flat or evenly shaded picture, which would match every other one', async () => {
    const flat = path.join(dir, 'flat.png');
    await runFfmpeg(
      binaries.ffmpeg,
      ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=gray:s=320x240', '-frames:v', '1', flat],
      { signal: AbortSignal.timeout(30_000), timeoutMs: 30_000 },
    );
    expect(await differenceHash(binaries, flat, { signal: AbortSignal.timeout(30_000) })).toBeNull();
  });

  it('counts differing bits', () => {
    expect(hashDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hashDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hashDistance('8000000000000001', '0000000000000000')).toBe(2);
  });
});
