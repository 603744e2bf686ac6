import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import type { FakeFal } from '../../../tests/support/fake-fal';
import { probeBytes } from '../../../tests/support/media';
import {
  bytesAt as bytesOf,
  followJob,
  payingUser,
  startFalPipeline,
  startGeneration,
} from '../../../tests/support/pipeline';

// Keyframes (a start and an end frame) and reference images through the whole pipeline: the exact
// input fal's stand-in (tests/support/fake-fal.ts, whose FAL_DOCUMENTED_INPUTS cites each endpoint's
// input schema) receives for each model that takes them, the image links leading to the very files
// the user uploaded, and the local engine's crossfade.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const START = fixture('chelsea.png');
const END = fixture('coffee.png');
const REFERENCE = fixture('astronaut.png');
let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ fal, t, stop } = await startFalPipeline());
}, 120_000);
afterAll(async () => {
  await stop();
});

const bytesAt = (link: unknown) => bytesOf(t, link);

async function submittedFor(model: string, body: object) {
  const { cookie } = await payingUser(t, 100_000);
  const files: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (Buffer.isBuffer(value)) files[field] = await uploadFile(t.app, cookie, value);
    else if (Array.isArray(value))
      files[field] = await Promise.all(value.map((v: Buffer) => uploadFile(t.app, cookie, v)));
    else files[field] = value;
  }
  const record = await startGeneration(t, cookie, { model, ...files });
  const { row } = await followJob(t, record.id);
  expect(fal.refused).toEqual([]);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  const submitted = fal.requests.find((r) => row?.providerTaskId?.includes(r.id));
  return { submitted, input: submitted?.input ?? {} };
}

describe('keyframes reach each provider in its documented fields', () => {
  it('fal Veo 3.1 calls first-last-frame-to-video with first_frame_url and last_frame_url', async () => {
    const { submitted, input } = await submittedFor('fal-veo3.1', {
      imageFile: START,
      endImageFile: END,
      aspectRatio: '9:16',
      duration: 6,
    });
    expect(submitted?.endpoint).toBe('fal-ai/veo3.1/first-last-frame-to-video');
    expect(Object.keys(input).sort()).toEqual(
      [
        'prompt',
        'aspect_ratio',
        'duration',
        'resolution',
        'generate_audio',
        'first_frame_url',
        'last_frame_url',
      ].sort(),
    );
    expect(input).toMatchObject({
      prompt: 'A cat surfing',
      aspect_ratio: '9:16',
      duration: '6s',
      resolution: '720p',
      generate_audio: false,
    });
    expect((await bytesAt(input.first_frame_url)).equals(START)).toBe(true);
    expect((await bytesAt(input.last_frame_url)).equals(END)).toBe(true);
  });

  it('fal Kling 2.5 Turbo sends the end frame as tail_image_url on its image-to-video', async () => {
    const { submitted, input } = await submittedFor('fal-kling-2.5-turbo', {
      imageFile: START,
      endImageFile: END,
      duration: 5,
    });
    expect(submitted?.endpoint).toBe('fal-ai/kling-video/v2.5-turbo/pro/image-to-video');
    expect(Object.keys(input).sort()).toEqual(['cfg_scale', 'duration', 'image_url', 'prompt', 'tail_image_url']);
    expect(input).toMatchObject({ prompt: 'A cat surfing', duration: '5', cfg_scale: 0.5 });
    expect((await bytesAt(input.image_url)).equals(START)).toBe(true);
    expect((await bytesAt(input.tail_image_url)).equals(END)).toBe(true);
  });

  it('fal Wan calls wan-flf2v with start_image_url and end_image_url', async () => {
    const { submitted, input } = await submittedFor('fal-wan-2.2', { imageFile: START, endImageFile: END });
    expect(submitted?.endpoint).toBe('fal-ai/wan-flf2v');
    expect(Object.keys(input).sort()).toEqual(['end_image_url', 'prompt', 'start_image_url']);
    expect((await bytesAt(input.start_image_url)).equals(START)).toBe(true);
    expect((await bytesAt(input.end_image_url)).equals(END)).toBe(true);
  });

  it('fal Veo 3.1 with only a start image still calls its image-to-video', async () => {
    const { submitted, input } = await submittedFor('fal-veo3.1', { imageFile: START });
    expect(submitted?.endpoint).toBe('fal-ai/veo3.1/image-to-video');
    expect(input).not.toHaveProperty('last_frame_url');
    expect((await bytesAt(input.image_url)).equals(START)).toBe(true);
  });
});

describe('reference images reach fal in their documented field', () => {
  it('fal Veo 3.1 calls reference-to-video with image_urls in the order sent', async () => {
    const { submitted, input } = await submittedFor('fal-veo3.1', {
      referenceImageFiles: [REFERENCE, START, END],
      duration: 8,
      // The astronaut is a real person: the uploader confirms consent (issue 43).
      consentToLikeness: true,
    });
    expect(submitted?.endpoint).toBe('fal-ai/veo3.1/reference-to-video');
    expect(Object.keys(input).sort()).toEqual(
      ['aspect_ratio', 'duration', 'generate_audio', 'image_urls', 'prompt', 'resolution'].sort(),
    );
    const links = input.image_urls as unknown[];
    expect(links).toHaveLength(3);
    const served = await Promise.all(links.map(bytesAt));
    expect(served.map((b, i) => b.equals([REFERENCE, START, END][i] ?? Buffer.alloc(0)))).toEqual([true, true, true]);
  });
});

describe('keyframes on the local engine through the pipeline', () => {
  it('renders a start and an end frame into a clip of the asked shape and length', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const record = await startGeneration(t, cookie, {
      model: 'local',
      imageFile: await uploadFile(t.app, cookie, START),
      endImageFile: await uploadFile(t.app, cookie, END),
      aspectRatio: '1:1',
      resolution: '480p',
      duration: 3,
    });
    const { row } = await followJob(t, record.id, 120_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const file = await t.ctx.storage.read(row?.outputKey ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(chunk as Buffer);
    const info = await probeBytes(Buffer.concat(chunks));
    expect(info.video).toMatchObject({ width: 480, height: 480 });
    expect(Math.abs(info.durationSeconds - 3)).toBeLessThanOrEqual(0.1);
  }, 150_000);
});
