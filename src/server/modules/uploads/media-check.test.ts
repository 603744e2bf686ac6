import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { binaries } from '../../../../tests/support/media';
import { readEnv } from '../../config';
import { uploads } from '../../db/schema';
import { oldFfmpegWarning } from '../../media/ffmpeg';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-media-check-test-'));

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  // The FFmpeg the server prefers: the system's, on PATH (tests/support/media.ts finds the same).
  t = await createTestApp({ PATH: readEnv().PATH ?? '' });
  expect(t.ctx.media).toMatchObject({ ffmpeg: binaries.ffmpeg, ffprobe: binaries.ffprobe });
  cookie = await signIn(t.app, await createUser(t.db));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Makes a file with FFmpeg (`inputs` then the output options) and answers its bytes. */
async function make(name: string, args: string[]): Promise<Buffer> {
  const file = path.join(dir, name);
  await run(binaries.ffmpeg, ['-y', '-v', 'error', ...args, file]);
  return readFileSync(file);
}
const tinyVideo = (seconds: number, extra: string[] = []) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=s=32x32:r=5:d=${seconds}`,
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-pix_fmt',
  'yuv420p',
  ...extra,
];

/** Where the first top-level box of this type starts. */
function boxOffset(bytes: Buffer, type: string): number {
  let offset = 0;
  while (offset + 8 <= bytes.length && bytes.toString('latin1', offset + 4, offset + 8) !== type)
    offset += bytes.readUInt32BE(offset);
  return offset;
}

/** The same MP4 with every duration its header states (movie, tracks, media) set to `seconds`. */
function withStatedDuration(source: Buffer, seconds: number): Buffer {
  const bytes = Buffer.from(source);
  const mvhd = bytes.indexOf('mvhd');
  const movieScale = bytes.readUInt32BE(mvhd + 16);
  for (const box of ['mvhd', 'tkhd', 'mdhd']) {
    for (let at = bytes.indexOf(box); at !== -1; at = bytes.indexOf(box, at + 4)) {
      if (box === 'tkhd') bytes.writeUInt32BE(seconds * movieScale, at + 24);
      else bytes.writeUInt32BE(seconds * bytes.readUInt32BE(at + 16), at + 20);
    }
  }
  return bytes;
}

async function upload(bytes: Buffer) {
  const target = (await injectJson(t.app, 'POST', '/api/objects/upload', { cookie })).json<{
    uploadURL: string;
    objectPath: string;
  }>();
  const response = await t.app.inject({
    method: 'PUT',
    url: target.uploadURL,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { response, objectPath: target.objectPath };
}

async function expectRefused(bytes: Buffer, code: string, message: RegExp) {
  const { response, objectPath } = await upload(bytes);
  expect(response.statusCode).toBe(422);
  expect(response.json()).toMatchObject({ code, message: expect.stringMatching(message) });
  // Nothing is kept: neither the file nor its row.
  expect(await t.ctx.storage.stat(objectPath.replace(/^\/objects\//, ''))).toBeNull();
  const id = objectPath.split('/').pop() ?? '';
  expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toHaveLength(0);
}

describe('checking uploaded video and audio with FFmpeg', () => {
  it('accepts a video and an audio file that play, and files an MP4 holding only sound as audio', async () => {
    const video = await make('ok.mp4', [...tinyVideo(3), '-movflags', '+faststart']);
    expect((await upload(video)).response.json()).toMatchObject({ kind: 'video', contentType: 'video/mp4' });
    const wav = await make('ok.wav', ['-f', 'lavfi', '-i', 'sine=f=330:d=2']);
    expect((await upload(wav)).response.json()).toMatchObject({ kind: 'audio' });
    const soundOnly = await make('sound.mp4', ['-f', 'lavfi', '-i', 'sine=f=330:d=2', '-c:a', 'aac', '-f', 'mp4']);
    expect((await upload(soundOnly)).response.json()).toMatchObject({
      kind: 'audio',
      contentType: expect.stringMatching(/^audio\//),
    });
  });

  it('refuses an MP4 cut off after its index (FFmpeg would loop over it forever), keeping nothing', async () => {
    const whole = await make('whole.mp4', [...tinyVideo(3), '-movflags', '+faststart']);
    await expectRefused(whole.subarray(0, boxOffset(whole, 'mdat') + 64), 'media_unplayable', /could not be played/);
  });

  it('refuses an MP4 cut off in the middle, with its index first or last', async () => {
    const indexFirst = await make('first.mp4', [...tinyVideo(6), '-movflags', '+faststart']);
    await expectRefused(
      indexFirst.subarray(0, Math.floor(indexFirst.length * 0.6)),
      'media_unplayable',
      /could not be played/,
    );
    const indexLast = await make('last.mp4', tinyVideo(6));
    await expectRefused(
      indexLast.subarray(0, Math.floor(indexLast.length * 0.6)),
      'media_unplayable',
      /could not be played/,
    );
  });

  it('measures the real length of a video whose header says it is shorter', async () => {
    const long = await make('long.mp4', [...tinyVideo(70), '-movflags', '+faststart']);
    await expectRefused(
      withStatedDuration(long, 3),
      'media_too_long',
      /^Videos can be at most 1 minute long; this one is 1 minute 10 seconds/,
    );
  });

  // The 2018 build takes the length from the track's frames and never sees this lie (nor loops on it).
  it.runIf(oldFfmpegWarning(binaries) === null)(
    'refuses a video whose header says it is longer than what it holds',
    async () => {
      const short = await make('short.mp4', [...tinyVideo(3), '-movflags', '+faststart']);
      await expectRefused(
        withStatedDuration(short, 50),
        'media_unplayable',
        /^This file stops after 3 seconds although it says it is 50 seconds long/,
      );
    },
  );

  it('refuses frames larger than 4096 pixels and more than 240 frames a second', async () => {
    const wide = await make('wide.mp4', [
      '-f',
      'lavfi',
      '-i',
      'color=s=4104x16:r=5:d=0.4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ]);
    await expectRefused(wide, 'media_frame_too_large', /at most 4096 pixels wide and tall; this one is 4104x16/);
    const fast = await make('fast.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=32x32:r=300:d=0.4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
    ]);
    await expectRefused(fast, 'media_frame_rate_too_high', /at most 240 frames a second; this one has 300/);
  });

  it('refuses audio longer than 10 minutes', async () => {
    const song = await make('long.wav', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=8000:cl=mono',
      '-t',
      '601',
      '-c:a',
      'pcm_u8',
    ]);
    await expectRefused(
      song,
      'media_too_long',
      /^Audio files can be at most 10 minutes long; this one is 10 minutes 1 second/,
    );
  });
});
