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
import { startS3rver } from '../../../../tests/support/s3rver';
import { uploads } from '../../db/schema';
import { mediaUrl } from '../../storage/media-links';
import { createS3Storage } from '../../storage/s3-storage';
import { resolveUploadRef } from './uploads.service';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
let s3: Awaited<ReturnType<typeof startS3rver>>;
let cookie: string;
let userId: string;

beforeAll(async () => {
  s3 = await startS3rver();
  t = await createTestApp({}, undefined, { storage: createS3Storage(s3.config) });
  const user = await createUser(t.db);
  userId = user.id;
  cookie = await signIn(t.app, user);
});
afterAll(async () => {
  await t.close();
  await s3.stop();
});

async function postToBucket(content: Buffer) {
  const target = (await injectJson(t.app, 'POST', '/api/objects/upload', { cookie })).json();
  expect(target.method).toBe('POST');
  const form = new FormData();
  for (const [key, value] of Object.entries(target.fields as Record<string, string>)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(content)], { type: 'image/png' }));
  expect((await fetch(target.uploadURL, { method: 'POST', body: form })).status).toBe(204);
  return target as { objectPath: string };
}

const deps = () => t.ctx;

/** A 4 s MP4 with its index first (cut anywhere after it, it still looks fine to a quick probe). */
async function makeVideo(): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-s3-video-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    await promisify(execFile)(binaries.ffmpeg, [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=64x48:r=10:d=4',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('uploads on S3', () => {
  it('checks a direct upload the first time it is named, then plays it through a presigned redirect', async () => {
    const { objectPath } = await postToBucket(PNG);
    const resolved = await resolveUploadRef(deps(), userId, objectPath);
    expect(resolved).toMatchObject({ kind: 'image', contentType: 'image/png', sizeBytes: PNG.length });

    const url = mediaUrl(t.config.sessionSecret, {
      key: resolved.objectKey,
      contentType: 'image/png',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const redirect = await t.app.inject({ method: 'GET', url });
    expect(redirect.statusCode).toBe(302);
    const fetched = await fetch(String(redirect.headers.location), { headers: { range: 'bytes=0-9' } });
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG.subarray(0, 10))).toBe(true);
  });

  it('plays a direct video upload through FFmpeg when it is first named, and refuses a cut-off one, keeping nothing', async () => {
    const whole = await makeVideo();
    const good = await postToBucket(whole);
    expect(await resolveUploadRef(deps(), userId, good.objectPath)).toMatchObject({
      kind: 'video',
      contentType: 'video/mp4',
    });

    const cut = await postToBucket(whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(resolveUploadRef(deps(), userId, cut.objectPath)).rejects.toMatchObject({
      status: 422,
      code: 'media_unplayable',
    });
    expect(await createS3Storage(s3.config).stat(cut.objectPath.replace('/objects/', ''))).toBeNull();
    const id = cut.objectPath.split('/').pop() ?? '';
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toHaveLength(0);
  });

  it('refuses and deletes a direct upload that is not media', async () => {
    const { objectPath } = await postToBucket(Buffer.from('plain text, not an image '.repeat(100)));
    await expect(resolveUploadRef(deps(), userId, objectPath)).rejects.toMatchObject({ status: 400 });
    expect(await createS3Storage(s3.config).stat(objectPath.replace('/objects/', ''))).toBeNull();
  });
});
