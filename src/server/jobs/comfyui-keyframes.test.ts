import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import { type FakeComfy, startFakeComfy } from '../../../tests/support/fake-comfyui';
import { makeMediaFixtures } from '../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../tests/support/pipeline';

// The built-in Wan first-last-frame template (templates/wan21-flf2v-14b.json: ComfyUI's
// WanFirstLastFrameToVideo, whose start_image and end_image are optional inputs) through the whole
// pipeline against the ComfyUI stand-in: both frames uploaded and named in the workflow, or the
// LoadImage nodes of the frames not given removed with their links.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const START = fixture('chelsea.png');
const END = fixture('coffee.png');
const MODEL = 'comfyui-wan21-flf2v-14b';

let comfy: FakeComfy;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  comfy = await startFakeComfy((await makeMediaFixtures()).video);
  comfy.stepMs = 20;
  ({ t, stop } = await startPipeline({ COMFYUI_URL: comfy.baseUrl }));
}, 120_000);
afterAll(async () => {
  await stop();
  await comfy.close();
});

async function workflowOf(body: object) {
  const { cookie } = await payingUser(t, 100_000);
  const files: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body))
    files[field] = Buffer.isBuffer(value) ? await uploadFile(t.app, cookie, value) : value;
  const record = await startGeneration(t, cookie, { model: MODEL, ...files });
  const { row } = await followJob(t, record.id);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  const prompt = comfy.prompts.find((p) => row?.providerTaskId?.includes(p.id));
  return { workflow: prompt?.workflow ?? {}, id: record.id };
}

describe('the Wan first-last-frame ComfyUI template', () => {
  it('is in the catalogue with an end frame', async () => {
    const info = t.ctx.engines.info(MODEL);
    expect(info).toMatchObject({ available: true, endFrame: true, inputs: ['text', 'image'], durations: [3, 4, 5] });
  });

  it('uploads the start and the end frame and names each in its LoadImage node', async () => {
    const { workflow, id } = await workflowOf({
      imageFile: START,
      endImageFile: END,
      duration: 5,
      aspectRatio: '9:16',
    });
    expect(workflow['56']?.inputs.image).toBe(`reelsmith-${id}.png`);
    expect(workflow['59']?.inputs.image).toBe(`reelsmith-${id}-end.png`);
    expect(comfy.uploads).toEqual(
      expect.arrayContaining([
        { filename: `reelsmith-${id}.png`, bytes: expect.any(Number) as number },
        { filename: `reelsmith-${id}-end.png`, bytes: expect.any(Number) as number },
      ]),
    );
    expect(workflow['55']?.class_type).toBe('WanFirstLastFrameToVideo');
    expect(workflow['55']?.inputs).toMatchObject({
      width: 720,
      height: 1280,
      length: 81,
      start_image: ['56', 0],
      end_image: ['59', 0],
    });
  });

  it('without frames removes both LoadImage nodes and their links', async () => {
    const { workflow } = await workflowOf({ duration: 3 });
    expect(workflow['56']).toBeUndefined();
    expect(workflow['59']).toBeUndefined();
    expect(workflow['55']?.inputs).not.toHaveProperty('start_image');
    expect(workflow['55']?.inputs).not.toHaveProperty('end_image');
    expect(workflow['55']?.inputs.length).toBe(49);
  });
});
