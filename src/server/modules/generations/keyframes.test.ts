import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { makeMediaFixtures } from '../../../../tests/support/media';
import type { GenerationRecord } from '../../../shared/generations';
import type { ModelInfo } from '../../../shared/models';
import { generations, uploads, users } from '../../db/schema';

// Keyframes and reference images at the API: what GET /api/models says each model takes, the 400
// naming the control and the model for what it cannot take (with nothing written or charged), the
// ownership check of every image, and the record that shows them. No worker runs here.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures', name));
const PNG = fixture('chelsea.png');
const OTHER_PNG = fixture('coffee.png');

let t: TestApp;
let models: ModelInfo[];

beforeAll(async () => {
  t = await createTestApp({ FAL_KEY: 'k' });
  const user = await createUser(t.db);
  const cookie = await signIn(t.app, user);
  models = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function userWithImages(count = 2) {
  const user = await createUser(t.db, { creditsHundredths: 100_000 });
  const cookie = await signIn(t.app, user);
  const images: string[] = [];
  for (let i = 0; i < count; i++) images.push(await uploadFile(t.app, cookie, i % 2 === 0 ? PNG : OTHER_PNG));
  return { user, cookie, images };
}

async function generate(cookie: string, body: object) {
  return injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { description: 'The cat turns into a coffee cup', ...body },
  });
}

/** Refused with a 400 of this code naming the model, and nothing written or charged. */
async function expectRefused(
  who: { user: { id: string }; cookie: string },
  body: object,
  code: string,
  words: string[],
) {
  const before = await t.db.select().from(users).where(eq(users.id, who.user.id));
  const response = await generate(who.cookie, body);
  expect(response.statusCode, response.body).toBe(400);
  const answer = response.json<{ code: string; message: string }>();
  expect(answer.code).toBe(code);
  for (const word of words) expect(answer.message).toContain(word);
  expect(await t.db.select().from(generations).where(eq(generations.userId, who.user.id))).toEqual([]);
  const after = await t.db.select().from(users).where(eq(users.id, who.user.id));
  expect(after[0]?.creditsHundredths).toBe(before[0]?.creditsHundredths);
}

describe('GET /api/models says which models take keyframes and reference images', () => {
  it.each([
    ['local', true, 0, false],
    ['fal-veo3.1', true, 3, true],
    ['fal-kling-2.5-turbo', true, 0, false],
    ['fal-wan-2.2', true, 0, false],
    ['fal-veo3', false, 0, false],
    ['fal-kling-2.1', false, 0, false],
  ])('%s: endFrame %s, %i reference images, references alone %s', (id, endFrame, referenceImages, referencesAlone) => {
    expect(models.find((m) => m.id === id)).toMatchObject({ endFrame, referenceImages, referencesAlone });
  });
});

describe('a request with keyframes or references its model cannot take', () => {
  it('refuses an end frame for a model without one, naming the model and the end frame', async () => {
    const who = await userWithImages();
    await expectRefused(
      who,
      { model: 'fal-veo3', imageFile: who.images[0], endImageFile: who.images[1] },
      'end_frame_not_supported',
      ['Veo 3 (fal.ai)', 'end frame'],
    );
  });

  it('refuses an end frame without a start image', async () => {
    const who = await userWithImages();
    await expectRefused(who, { model: 'local', endImageFile: who.images[1] }, 'end_frame_without_start', [
      'Local preview engine',
      'start frame',
    ]);
  });

  it('refuses more reference images than the model takes, and any for a model that takes none', async () => {
    const who = await userWithImages(4);
    await expectRefused(who, { model: 'fal-veo3.1', referenceImageFiles: who.images }, 'too_many_reference_images', [
      'Veo 3.1 (fal.ai)',
      'at most 3 reference images',
    ]);
    await expectRefused(
      who,
      { model: 'local', referenceImageFiles: who.images.slice(0, 1) },
      'reference_images_not_supported',
      ['Local preview engine', 'reference images'],
    );
  });

  it('refuses reference images with frames where the provider takes them on a call of their own', async () => {
    const who = await userWithImages(3);
    await expectRefused(
      who,
      { model: 'fal-veo3.1', imageFile: who.images[0], referenceImageFiles: who.images.slice(1) },
      'references_with_frames',
      ['Veo 3.1 (fal.ai)', 'reference images'],
    );
  });

  it('refuses the same reference image twice, and more than any model takes at the schema', async () => {
    const who = await userWithImages(1);
    const image = who.images[0] ?? '';
    await expectRefused(
      who,
      { model: 'fal-veo3.1', referenceImageFiles: [image, image] },
      'duplicate_reference_image',
      ['twice'],
    );
    const response = await generate(who.cookie, { model: 'fal-veo3.1', referenceImageFiles: Array(9).fill(image) });
    expect(response.statusCode).toBe(400);
  });

  it("refuses another user's image and a non-image as an end frame or a reference", async () => {
    const owner = await userWithImages(1);
    const who = await userWithImages(1);
    const start = who.images[0];
    await expectRefused(who, { model: 'local', imageFile: start, endImageFile: owner.images[0] }, 'invalid_upload', [
      'not one of your uploads',
    ]);
    await expectRefused(who, { model: 'fal-veo3.1', referenceImageFiles: owner.images }, 'invalid_upload', [
      'not one of your uploads',
    ]);
    const { video } = await makeMediaFixtures();
    const clip = await uploadFile(t.app, who.cookie, video);
    await expectRefused(who, { model: 'local', imageFile: start, endImageFile: clip }, 'wrong_input_kind', [
      'endImageFile',
      'image',
    ]);
  });
});

describe('the record', () => {
  it('stores the end frame and the reference images and shows them with the inputs, at the same price', async () => {
    const who = await userWithImages(2);
    const [start, end] = who.images;
    const plain = await generate(who.cookie, { model: 'local', imageFile: start, duration: 4 });
    const keyed = await generate(who.cookie, { model: 'local', imageFile: start, endImageFile: end, duration: 4 });
    expect(keyed.statusCode, keyed.body).toBe(201);
    const record = keyed.json<GenerationRecord>();
    expect(record.inputs).toEqual({ image: start, endImage: end });
    // Keyframes do not change the price.
    expect(record.creditsUsed).toBe(plain.json<GenerationRecord>().creditsUsed);
    const [row] = await t.db.select().from(generations).where(eq(generations.id, record.id));
    expect(row?.endImage?.uploadId).toBe(end?.split('/').at(-1));
    expect(row?.referenceImages).toEqual([]);

    const refs = await userWithImages(2);
    const withRefs = await generate(refs.cookie, { model: 'fal-veo3.1', referenceImageFiles: refs.images });
    expect(withRefs.statusCode, withRefs.body).toBe(201);
    expect(withRefs.json<GenerationRecord>().inputs).toEqual({ referenceImages: refs.images });
    const listed = await injectJson(t.app, 'GET', '/api/video-generation', { cookie: refs.cookie });
    expect(JSON.stringify(listed.json())).toContain(refs.images[1] ?? 'missing');
  });

  it('names what is gone of its end frame and reference images, for Remix, and shows only the live ones', async () => {
    const who = await userWithImages(3);
    const [start, end, reference] = who.images;
    const keyed = await generate(who.cookie, { model: 'local', imageFile: start, endImageFile: end });
    const refs = await generate(who.cookie, { model: 'fal-veo3.1', referenceImageFiles: [reference, end] });
    expect(keyed.statusCode, keyed.body).toBe(201);
    expect(refs.statusCode, refs.body).toBe(201);
    expect(keyed.json<GenerationRecord>().goneInputs).toBeUndefined();
    // The end frame's file outlived its retention (the sweeper deletes the upload then).
    const past = new Date(Date.now() - 1000).toISOString();
    for (const created of [keyed, refs]) {
      const [row] = await t.db
        .select()
        .from(generations)
        .where(eq(generations.id, created.json<GenerationRecord>().id));
      const endUpload = end?.split('/').at(-1);
      await t.db
        .update(generations)
        .set({
          endImage: row?.endImage ? { ...row.endImage, expiresAt: past } : null,
          referenceImages: (row?.referenceImages ?? []).map((r) =>
            r.uploadId === endUpload ? { ...r, expiresAt: past } : r,
          ),
        })
        .where(eq(generations.id, created.json<GenerationRecord>().id));
    }
    const listed = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie: who.cookie })).json<
      GenerationRecord[]
    >();
    const byId = (id: string) => listed.find((r) => r.id === id);
    expect(byId(keyed.json<GenerationRecord>().id)).toMatchObject({
      inputs: { image: start },
      goneInputs: ['endImage'],
    });
    expect(byId(refs.json<GenerationRecord>().id)).toMatchObject({
      inputs: { referenceImages: [reference] },
      goneInputs: ['referenceImage'],
    });
  });
});

describe('deleting a video with keyframes', () => {
  it('deletes its end frame and reference uploads, keeping those another video still names', async () => {
    const who = await userWithImages(3);
    const [start, end, reference] = who.images;
    const idOf = (objectPath: string | undefined) => objectPath?.split('/').at(-1) ?? '';
    const first = await generate(who.cookie, { model: 'local', imageFile: start, endImageFile: end });
    const second = await generate(who.cookie, { model: 'fal-veo3.1', referenceImageFiles: [reference, end] });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    const remaining = async () =>
      (await t.db.select().from(uploads).where(eq(uploads.userId, who.user.id))).map((u) => u.id).sort();

    const deleted = await injectJson(t.app, 'DELETE', `/api/video-generation/${first.json<GenerationRecord>().id}`, {
      cookie: who.cookie,
    });
    expect(deleted.statusCode).toBe(200);
    // The start image went; the end frame stays, as the second video names it as a reference.
    expect(await remaining()).toEqual([idOf(end), idOf(reference)].sort());
    await injectJson(t.app, 'DELETE', `/api/video-generation/${second.json<GenerationRecord>().id}`, {
      cookie: who.cookie,
    });
    expect(await remaining()).toEqual([]);
  });
});
