import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import { type FakeComfy, startFakeComfy } from '../../../tests/support/fake-comfyui';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import { type FakeReplicate, startFakeReplicate } from '../../../tests/support/fake-replicate';
import { makeMediaFixtures } from '../../../tests/support/media';
import {
  bytesAt,
  FAL_PIPELINE_PUBLIC_URL,
  followJob,
  payingUser,
  startGeneration,
  startPipeline,
} from '../../../tests/support/pipeline';
import type { Character } from '../../shared/characters';
import { uploads } from '../db/schema';

// A character of the user's library (issue 47) reaching each provider's stand-in in the field that
// provider documents: its pictures as reference images where the model takes them (fal Veo 3.1's
// reference-to-video `image_urls`, fal's model page), else its name and description in the prompt
// (fal's `prompt`, a Replicate prediction's `input.prompt`, the ComfyUI template's mapped text input).

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const ASTRONAUT = fixture('astronaut.png');
const COFFEE = fixture('coffee.png');
const CAT = fixture('chelsea.png');
const LINE = 'Captain Mira: A tall lighthouse keeper in a yellow raincoat';

let fal: FakeFal;
let replicate: FakeReplicate;
let comfy: FakeComfy;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  const { video } = await makeMediaFixtures();
  [fal, replicate, comfy] = await Promise.all([startFakeFal(video), startFakeReplicate(video), startFakeComfy(video)]);
  fal.stepMs = 30;
  replicate.stepMs = 30;
  comfy.stepMs = 30;
  ({ t, stop } = await startPipeline({
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.baseUrl,
    REPLICATE_API_TOKEN: replicate.token,
    REPLICATE_BASE_URL: replicate.baseUrl,
    COMFYUI_URL: comfy.baseUrl,
    PUBLIC_URL: FAL_PIPELINE_PUBLIC_URL,
  }));
}, 120_000);
afterAll(async () => {
  await stop();
  await Promise.all([fal.close(), replicate.close(), comfy.close()]);
});

/** A user with Captain Mira (the astronaut's picture, consented to) in their library. */
async function withCharacter() {
  const { user, cookie } = await payingUser(t, 100_000);
  const made = await injectJson(t.app, 'POST', '/api/characters', {
    cookie,
    body: {
      name: 'Captain Mira',
      description: 'A tall lighthouse keeper in a yellow raincoat',
      imageFiles: [await uploadFile(t.app, cookie, ASTRONAUT)],
      consentToLikeness: true,
    },
  });
  expect(made.statusCode, made.body).toBe(201);
  return { user, cookie, character: made.json<Character>() };
}

/** Makes a video with the character on a model and follows it to its end. */
async function madeWith(model: string, body: object = {}) {
  const { user, cookie, character } = await withCharacter();
  const record = await startGeneration(t, cookie, {
    prompt: 'The keeper lights the lamp',
    model,
    characterId: character.id,
    ...body,
  });
  const { row } = await followJob(t, record.id, 60_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return { row, user, cookie };
}

describe('a character reaches each provider in its documented field', () => {
  it('fal Veo 3.1: its picture in reference-to-video’s image_urls, before the request’s own, with its consent', async () => {
    const { user, cookie, character } = await withCharacter();
    const extra = await uploadFile(t.app, cookie, COFFEE);
    const record = await startGeneration(t, cookie, {
      prompt: 'The keeper lights the lamp',
      model: 'fal-veo3.1',
      duration: 8,
      characterId: character.id,
      referenceImageFiles: [extra],
    });
    const { row } = await followJob(t, record.id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    expect(fal.refused).toEqual([]);
    const submitted = fal.requests.find((r) => row?.providerTaskId?.includes(r.id));
    expect(submitted?.endpoint).toBe('fal-ai/veo3.1/reference-to-video');
    expect(submitted?.input.prompt).toBe('The keeper lights the lamp');
    const served = await Promise.all((submitted?.input.image_urls as unknown[]).map((link) => bytesAt(t, link)));
    expect(served.map((bytes, i) => bytes.equals([ASTRONAUT, COFFEE][i] ?? Buffer.alloc(0)))).toEqual([true, true]);
    // The consent given when the character was made is kept with the job.
    expect(row?.consent?.uploadIds).toHaveLength(1);
    expect(user.id).toBe(row?.userId);
  });

  it('fal Kling 2.1: its name and description in prompt, and no picture', async () => {
    const { row } = await madeWith('fal-kling-2.1', { duration: 5 });
    const submitted = fal.requests.find((r) => row?.providerTaskId?.includes(r.id));
    expect(submitted?.input.prompt).toBe(`The keeper lights the lamp\n\n${LINE}`);
    expect(Object.keys(submitted?.input ?? {}).filter((key) => key.includes('image'))).toEqual([]);
  });

  it('Replicate (Veo 3 and Kling 2.1): in the prediction’s input.prompt', async () => {
    for (const model of ['replicate-veo3', 'replicate-kling-2.1']) {
      const { row } = await madeWith(model);
      const prediction = replicate.predictions.find((p) => row?.providerTaskId?.includes(p.id));
      expect(prediction?.input.prompt, model).toBe(`The keeper lights the lamp\n\n${LINE}`);
      expect(Object.keys(prediction?.input ?? {}).filter((key) => key.includes('image'))).toEqual([]);
    }
  });

  it('ComfyUI (LTX-Video template): in the text input its map names for the prompt', async () => {
    const { row } = await madeWith('comfyui-ltxv', { duration: 2 });
    const prompt = comfy.prompts.find((p) => row?.providerTaskId?.includes(p.id));
    expect(prompt?.workflow['6']?.inputs.text).toBe(`The keeper lights the lamp\n\n${LINE}`);
  });

  it('leaves no copy of its pictures behind when the video is refused (the balance)', async () => {
    const { user, cookie } = await payingUser(t, 0);
    const made = await injectJson(t.app, 'POST', '/api/characters', {
      cookie,
      body: { name: 'Cat', imageFiles: [await uploadFile(t.app, cookie, CAT)] },
    });
    const count = async () => (await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).length;
    const before = await count();
    const unpaid = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A cat', model: 'fal-veo3.1', duration: 8, characterId: made.json<Character>().id },
    });
    expect(unpaid.statusCode, unpaid.body).toBe(402);
    expect(await count()).toBe(before);
  });
});
