import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oldFfmpegWarning, resolveFfmpeg } from './ffmpeg';

const require = createRequire(import.meta.url);
const bundled = {
  ffmpeg: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
  ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
};

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('which FFmpeg runs', () => {
  it('warns when only the 2018 build of the npm packages is there, and says what to do', () => {
    const onlyBundled = resolveFfmpeg({ ffmpegPath: undefined, ffprobePath: undefined }, '');
    expect(onlyBundled).toMatchObject(bundled);
    const warning = oldFfmpegWarning(onlyBundled);
    expect(warning).toMatch(/^Using the ffmpeg and ffprobe bundled with the npm packages: a 2018 FFmpeg build/);
    expect(warning).toContain('apt-get install ffmpeg');
    expect(warning).toContain('FFMPEG_PATH and FFPROBE_PATH');
    expect(oldFfmpegWarning({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: bundled.ffprobe })).toMatch(
      /^Using the ffprobe bundled/,
    );
  });

  it('says nothing about a system or configured FFmpeg', () => {
    expect(oldFfmpegWarning({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' })).toBeNull();
    expect(
      oldFfmpegWarning(
        resolveFfmpeg({ ffmpegPath: '/opt/ffmpeg/bin/ffmpeg', ffprobePath: '/opt/ffmpeg/bin/ffprobe' }, ''),
      ),
    ).toBeNull();
  });

  it('prefers the FFmpeg on PATH to the bundled one', () => {
    const dir = fakeFfmpegFolder();
    expect(resolveFfmpeg({ ffmpegPath: undefined, ffprobePath: undefined }, dir)).toEqual({
      ffmpeg: path.join(dir, 'ffmpeg'),
      ffprobe: path.join(dir, 'ffprobe'),
    });
  });

  it.runIf(existsSync('/usr/bin/timeout'))("starts every run under the system's timeout as a watchdog", () => {
    const dir = fakeFfmpegFolder();
    expect(resolveFfmpeg({ ffmpegPath: undefined, ffprobePath: undefined }, `${dir}:/usr/bin`).watchdog).toBe(
      '/usr/bin/timeout',
    );
  });
});

/** A folder holding executables named ffmpeg and ffprobe, to put on a PATH. */
function fakeFfmpegFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-fake-ffmpeg-'));
  folders.push(dir);
  for (const name of ['ffmpeg', 'ffprobe']) writeFileSync(path.join(dir, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}
