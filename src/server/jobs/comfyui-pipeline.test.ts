import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { independentlyRead } from '../../../tests/support/credentials';
import { uploadFile } from '../../../tests/support/factories';
import { COMFY_ERROR_MESSAGE, type FakeComfy, startFakeComfy } from '../../../tests/support/fake-comfyui';
import { makeMediaFixtures, probeBytes } from '../../../tests/support/media';
import {
  followJob,
  payingUser,
  rowOf,
  startGeneration,
  startPipeline,
  waitUntil,
} from '../../../tests/support/pipeline';
import type { GenerationRecord } from '../../shared/generations';
import type { ModelInfo } from '../../shared/models';

// An operator's ComfyUI through the whole pipeline: HTTP and the WebSocket, against a local stand-in.
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));
const TEMPLATES = path.resolve(import.meta.dirname, '../engines/comfyui/templates');
type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
const template = (name: string) => JSON.parse(readFileSync(path.join(TEMPLATES, name), 'utf8')) as Workflow;

let comfy: FakeComfy;
let t: TestApp;
let stop: () => Promise<void>;
let operatorDir: string;

beforeAll(async () => {
  comfy = await startFakeComfy((await makeMediaFixtures()).video);
  comfy.auth = { name: 'x-comfy-token', value: 'gpu-secret' };
  // An operator's own template: a copy of the LTX workflow under its own id and name.
  operatorDir = mkdtempSync(path.join(tmpdir(), 'comfy-templates-'));
  cpSync(path.join(TEMPLATES, 'ltxv-t2v.json'), path.join(operatorDir, 'my-flow.json'));
  const mapping = JSON.parse(readFileSync(path.join(TEMPLATES, 'ltxv-t2v.map.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  writeFileSync(
    path.join(operatorDir, 'my-flow.map.json'),
    JSON.stringify({ ...mapping, id: 'comfyui-my-flow', name: 'My studio flow' }),
  );
  // And one whose graph links to a node it does not have: ComfyUI refuses it.
  const broken = template('ltxv-t2v.json');
  const sampler = broken['72'];
  if (sampler) sampler.inputs.sampler = ['99', 0];
  writeFileSync(path.join(operatorDir, 'broken.json'), JSON.stringify(broken));
  writeFileSync(
    path.join(operatorDir, 'broken.map.json'),
    JSON.stringify({ ...mapping, id: 'comfyui-broken', name: 'Broken flow' }),
  );
  ({ t, stop } = await startPipeline({
    COMFYUI_URL: comfy.baseUrl,
    COMFYUI_AUTH_HEADER: 'X-Comfy-Token: gpu-secret',
    COMFYUI_TEMPLATES_DIR: operatorDir,
  }));
});
afterAll(async () => {
  await stop();
  await comfy.close();
  rmSync(operatorDir, { recursive: true, force: true });
});
beforeEach(() => {
  comfy.outcome = 'video';
  comfy.rateLimitNext = 0;
  comfy.socketOpen = true;
});

describe('ComfyUI through the pipeline', () => {
  it('lists the shipped templates and the operator’s own', async () => {
    const { cookie } = await payingUser(t);
    const { models } = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>();
    expect(models.find((m) => m.id === 'comfyui-wan22-ti2v-5b')).toMatchObject({
      engine: 'comfyui',
      available: true,
      inputs: ['text', 'image'],
      durations: [3, 4, 5],
    });
    expect(models.find((m) => m.id === 'comfyui-ltxv')).toMatchObject({ available: true, inputs: ['text'] });
    expect(models.find((m) => m.id === 'comfyui-my-flow')).toMatchObject({ name: 'My studio flow', available: true });
  });

  it('uploads the image, submits the template with the job’s values, follows the WebSocket and stores a playable MP4', async () => {
    const { cookie } = await payingUser(t);
    const imageFile = await uploadFile(t.app, cookie, PNG);
    comfy.rateLimitNext = 1;
    const settings = { seed: 42, negativePrompt: 'blurry', aspectRatio: '9:16' };
    const record = await startGeneration(t, cookie, {
      model: 'comfyui-wan22-ti2v-5b',
      prompt: 'A lighthouse at dusk',
      imageFile,
      duration: 10,
      jsonPrompt: JSON.stringify(settings),
    });
    const { row, seen } = await followJob(t, record.id);
    expect(row).toMatchObject({ status: 'completed', attempts: 1 });
    expect(comfy.rateLimited).toBe(1);
    expect(comfy.prompts).toHaveLength(1);
    const submitted = comfy.prompts[0];
    const upload = comfy.uploads.at(-1);
    expect(upload?.filename).toBe(`reelsmith-${record.id}.png`);

    // The submitted workflow is the template with exactly the job's values filled in.
    const expected = template('wan22-ti2v-5b.json');
    const set = (node: string, input: string, value: unknown) => {
      const target = expected[node];
      if (target) target.inputs[input] = value;
    };
    set('6', 'text', 'A lighthouse at dusk');
    set('7', 'text', 'blurry');
    set('3', 'seed', 42);
    set('55', 'width', 704);
    set('55', 'height', 1280);
    set('55', 'length', 121); // 10 s asked, 5 s is the nearest this template renders: 5 x 24 + 1 frames
    set('57', 'fps', 24);
    set('56', 'image', upload?.filename);
    expect(submitted?.workflow).toEqual(expected);
    expect(row?.providerTaskId).toBe(`${submitted?.id ?? ''}|${submitted?.clientId ?? ''}`);

    expect(new Set(seen.map((s) => s.progress)).size).toBeGreaterThanOrEqual(3);
    expect(
      seen.some((s) => s.progress > 10 && s.progress < 90 && s.stage === 'Generating with Wan 2.2 TI2V 5B (ComfyUI)'),
    ).toBe(true);
    // Every request, the WebSocket's included, carried the operator's header.
    expect(comfy.server.received.every((r) => r.headers['x-comfy-token'] === 'gpu-secret')).toBe(true);

    const [listed] = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    const output = (await t.app.inject({ method: 'GET', url: listed?.outputVideoUrl ?? '' })).rawPayload;
    expect((await probeBytes(output)).video).not.toBeNull();
    // Signed as the ComfyUI workflow's AI render, and valid to a reader independent of the signer.
    expect(await independentlyRead(output)).toMatchObject({ valid: true, sourceType: 'trainedAlgorithmicMedia' });
  });

  it('leaves the image node out without an image, and finishes by polling /history when the WebSocket is down', async () => {
    comfy.socketOpen = false;
    const { cookie } = await payingUser(t);
    const { row } = await followJob(
      t,
      (await startGeneration(t, cookie, { model: 'comfyui-wan22-ti2v-5b', duration: 4, jsonPrompt: '{"seed": 1}' })).id,
    );
    expect(row).toMatchObject({ status: 'completed' });
    const workflow = comfy.prompts.at(-1)?.workflow ?? {};
    expect(workflow['56']).toBeUndefined();
    expect(workflow['55']?.inputs).not.toHaveProperty('start_image');
    expect(workflow['55']?.inputs.length).toBe(97);
    // The operator's template's values go to both of its fps inputs.
    const flow = await startGeneration(t, cookie, { model: 'comfyui-my-flow', duration: 4 });
    expect((await followJob(t, flow.id)).row).toMatchObject({ status: 'completed' });
    const ltx = comfy.prompts.at(-1)?.workflow ?? {};
    expect([ltx['69']?.inputs.frame_rate, ltx['79']?.inputs.fps, ltx['70']?.inputs.length]).toEqual([24, 24, 97]);
  });

  it('refuses an image for a text-only template with a sentence', async () => {
    const { cookie } = await payingUser(t);
    const imageFile = await uploadFile(t.app, cookie, PNG);
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'x', model: 'comfyui-ltxv', imageFile },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'LTX-Video (ComfyUI) cannot take an image. Remove it, or choose a model that takes one.',
    });
  });

  it('fails a run the workflow refused (a safety checker node) with its reason', async () => {
    comfy.outcome = 'error';
    const { cookie } = await payingUser(t);
    const { row } = await followJob(t, (await startGeneration(t, cookie, { model: 'comfyui-ltxv' })).id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorMessage: `ComfyUI could not make this video: ${COMFY_ERROR_MESSAGE}`,
    });
  });

  it('fails a workflow ComfyUI refuses with its node errors, submitted once', async () => {
    const { cookie } = await payingUser(t);
    const before = comfy.server.received.filter((r) => r.path === '/prompt').length;
    const { row } = await followJob(t, (await startGeneration(t, cookie, { model: 'comfyui-broken' })).id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorMessage:
        'ComfyUI refused the workflow. Prompt outputs failed validation; SamplerCustom: Bad linked input links to a missing node',
    });
    expect(comfy.server.received.filter((r) => r.path === '/prompt').length - before).toBe(1);
  });

  it('interrupts the run at ComfyUI when the job is deleted', async () => {
    comfy.outcome = 'never';
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, { model: 'comfyui-ltxv' });
    await waitUntil(async () => Boolean((await rowOf(t, record.id))?.providerTaskId));
    const id = comfy.prompts.at(-1)?.id ?? '';
    await waitUntil(() => comfy.prompts.at(-1)?.state === 'running');
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${record.id}`, { cookie })).statusCode).toBe(200);
    await waitUntil(() => comfy.interrupted.includes(id) && comfy.deleted.includes(id));
  });
});
