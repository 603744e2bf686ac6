import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { makeMediaFixtures, probeBytes } from '../../../../tests/support/media';
import type { GenerationRecord } from '../../../shared/generations';
import { generations, uploads } from '../../db/schema';

// What Remix reads from a record, and Continue's last frame (POST /api/video-generation/:id/last-frame).
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
let clip: Buffer;
beforeAll(async () => {
  // No worker: a finished video is made by storing an MP4 and marking the row completed.
  t = await createTestApp();
  clip = (await makeMediaFixtures()).video;
});
afterAll(async () => {
  await t.close();
});

async function signedInUser() {
  const user = await createUser(t.db, { creditsHundredths: 2000 });
  return { user, cookie: await signIn(t.app, user) };
}

const generate = async (cookie: string, body: object) => {
  const response = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A cat', model: 'local', ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<GenerationRecord>();
};

async function finish(id: string, userId: string) {
  const key = `outputs/${userId}/${id}-test.mp4`;
  await t.ctx.storage.put(key, Readable.from(clip), 'video/mp4');
  await t.db
    .update(generations)
    .set({
      status: 'completed',
      outputKey: key,
      completedAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
      progress: 100,
    })
    .where(eq(generations.id, id));
}

const list = async (cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();

describe('Remix', () => {
  it('reads the prompt, economy, settings and the inputs still within their 24 hours from the record', async () => {
    const { cookie } = await signedInUser();
    const imageFile = await uploadFile(t.app, cookie, PNG);
    const record = await generate(cookie, {
      imageFile,
      isEconomy: true,
      jsonPrompt: '{"aspectRatio":"9:16","seed":3,"other":1}',
    });
    expect(record).toMatchObject({
      isEconomy: true,
      settings: { aspectRatio: '9:16', seed: 3 },
      inputs: { image: imageFile },
    });
    // Once the upload is past its 24 hours the record no longer offers it.
    const [row] = await t.db.select().from(generations).where(eq(generations.id, record.id));
    const image = row?.inputs.image;
    if (!image) throw new Error('no input');
    await t.db
      .update(generations)
      .set({ inputs: { image: { ...image, expiresAt: new Date(Date.now() - 1000).toISOString() } } })
      .where(eq(generations.id, record.id));
    expect((await list(cookie)).find((r) => r.id === record.id)?.inputs).toEqual({});
  });

  it('keeps an input while another generation (a remix) still uses it; the last one deleted takes it away', async () => {
    const { cookie } = await signedInUser();
    const imageFile = await uploadFile(t.app, cookie, PNG);
    const uploadId = imageFile.split('/').at(-1) ?? '';
    const original = await generate(cookie, { imageFile });
    const remix = await generate(cookie, { imageFile });
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${original.id}`, { cookie })).statusCode).toBe(
      200,
    );
    expect(await t.db.select().from(uploads).where(eq(uploads.id, uploadId))).toHaveLength(1);
    expect((await list(cookie)).find((r) => r.id === remix.id)?.inputs).toEqual({ image: imageFile });
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${remix.id}`, { cookie })).statusCode).toBe(200);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, uploadId))).toHaveLength(0);
  });
});

describe('Continue: the last frame', () => {
  it('becomes a new PNG upload of the user, usable as the next generation’s image', async () => {
    const { user, cookie } = await signedInUser();
    const video = await generate(cookie, { prompt: 'A boat leaves the harbour' });
    const early = await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/last-frame`, { cookie });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      message: 'This video has no finished file to continue from (it may have expired after 24 hours).',
    });

    await finish(video.id, user.id);
    const response = await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/last-frame`, { cookie });
    expect(response.statusCode).toBe(201);
    const frame = response.json<{ objectPath: string; kind: string; contentType: string; size: number }>();
    expect(frame).toMatchObject({ kind: 'image', contentType: 'image/png' });
    expect(frame.objectPath).toMatch(new RegExp(`^/objects/uploads/${user.id}/[0-9a-f-]{36}$`));
    const [row] = await t.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, frame.objectPath.split('/').at(-1) ?? ''));
    expect(row).toMatchObject({ userId: user.id, status: 'completed', kind: 'image', contentType: 'image/png' });
    const stored = await t.ctx.storage.read(row?.objectKey ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    const png = Buffer.concat(chunks);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const info = await probeBytes(png);
    expect(info.video?.width).toBeGreaterThan(0);

    const next = await generate(cookie, { prompt: 'Then it sails into the fog', imageFile: frame.objectPath });
    expect(next.inputs).toEqual({ image: frame.objectPath });
  });

  it('is a 404 for someone else’s video or a made-up id', async () => {
    const owner = await signedInUser();
    const video = await generate(owner.cookie, {});
    await finish(video.id, owner.user.id);
    const other = await signedInUser();
    expect(
      (await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/last-frame`, { cookie: other.cookie }))
        .statusCode,
    ).toBe(404);
    expect(
      (await injectJson(t.app, 'POST', '/api/video-generation/not-a-uuid/last-frame', { cookie: other.cookie }))
        .statusCode,
    ).toBe(404);
    expect((await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/last-frame`, {})).statusCode).toBe(401);
  });
});
