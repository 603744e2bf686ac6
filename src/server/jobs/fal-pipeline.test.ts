import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import { FAL_POLICY_MESSAGE, type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
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
import { PROVIDER_TIMEOUT_MESSAGE } from '../engines/provider-http';

// fal.ai's queue API through the whole pipeline, against a local stand-in speaking its wire format.
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));

let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  fal = await startFakeFal((await makeMediaFixtures()).video);
  ({ t, stop } = await startPipeline({
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.baseUrl,
    PUBLIC_URL: 'https://reelsmith.example',
  }));
});
afterAll(async () => {
  await stop();
  await fal.close();
});
beforeEach(() => {
  fal.outcome = 'video';
  fal.rateLimitNext = 0;
});

describe('fal.ai through the pipeline', () => {
  it('queues, shows the queue position and progress, retries a 429, and stores a playable MP4', async () => {
    const { cookie } = await payingUser(t);
    const imageFile = await uploadFile(t.app, cookie, PNG);
    fal.rateLimitNext = 1;
    const record = await startGeneration(t, cookie, {
      model: 'fal-veo3',
      prompt: 'The cat looks up',
      imageFile,
      duration: 10,
      jsonPrompt: '{"seed": 7}',
    });
    const { row, seen } = await followJob(t, record.id);
    expect(row).toMatchObject({ status: 'completed', attempts: 1 });
    expect(fal.rateLimited).toBeGreaterThanOrEqual(1);

    // One submission, to the image-to-video endpoint, with the job's values and a signed link the provider can fetch.
    const submitted = fal.requests.at(-1);
    expect(fal.requests).toHaveLength(1);
    expect(submitted?.endpoint).toBe('fal-ai/veo3/image-to-video');
    expect(submitted?.input).toMatchObject({
      prompt: 'The cat looks up',
      duration: '8s',
      seed: 7,
      generate_audio: false,
    });
    expect(String(submitted?.input.image_url)).toMatch(/^https:\/\/reelsmith\.example\/api\/media\//);
    // The request's URLs as fal's submit answer gave them, saved to resume it.
    const id = submitted?.id ?? '';
    expect(JSON.parse(row?.providerTaskId ?? 'null')).toEqual({
      requestId: id,
      statusUrl: `${fal.baseUrl}/fal-ai/veo3/requests/${id}/status`,
      responseUrl: `${fal.baseUrl}/fal-ai/veo3/requests/${id}`,
      cancelUrl: `${fal.baseUrl}/fal-ai/veo3/requests/${id}/cancel`,
    });

    const values = new Set(seen.map((s) => s.progress));
    expect(values.size).toBeGreaterThanOrEqual(3);
    expect(seen.some((s) => /Waiting in the fal\.ai queue \(position 1\)/.test(s.stage ?? ''))).toBe(true);
    expect(seen.some((s) => s.progress > 10 && s.progress < 90 && s.stage === 'Generating with Veo 3 (fal.ai)')).toBe(
      true,
    );

    const [listed] = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    const output = await t.app.inject({ method: 'GET', url: listed?.outputVideoUrl ?? '' });
    expect(output.statusCode).toBe(200);
    const info = await probeBytes(output.rawPayload);
    expect(info.video).not.toBeNull();
    expect(info.durationSeconds).toBeGreaterThan(0.5);
  });

  it('fails a content-policy refusal at once with fal.ai’s reason, submitted once', async () => {
    fal.outcome = 'policy';
    const { cookie } = await payingUser(t);
    const before = fal.requests.length;
    const record = await startGeneration(t, cookie, { model: 'fal-kling-2.1', duration: 5 });
    const { row } = await followJob(t, record.id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorMessage: `fal.ai refused this video: ${FAL_POLICY_MESSAGE}`,
    });
    expect(fal.requests.length - before).toBe(1);
    expect(fal.requests.at(-1)?.endpoint).toBe('fal-ai/kling-video/v2.1/master/text-to-video');
  });

  it('fails a run error with its reason in plain words', async () => {
    fal.outcome = 'error';
    const { cookie } = await payingUser(t);
    const { row } = await followJob(t, (await startGeneration(t, cookie, { model: 'fal-wan-2.2' })).id);
    expect(row).toMatchObject({
      status: 'failed',
      errorMessage: 'fal.ai could not make this video. The model ran out of memory on this input.',
    });
  });

  it('cancels the request at fal.ai when the job is deleted', async () => {
    fal.outcome = 'never';
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, { model: 'fal-ltx-video' });
    await waitUntil(async () => Boolean((await rowOf(t, record.id))?.providerTaskId));
    const requestId = fal.requests.at(-1)?.id ?? '';
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${record.id}`, { cookie })).statusCode).toBe(200);
    await waitUntil(() => fal.cancelled.includes(requestId));
    expect(
      fal.server.received.some(
        (r) => r.method === 'PUT' && r.path === `/fal-ai/ltx-video-13b-distilled/requests/${requestId}/cancel`,
      ),
    ).toBe(true);
  });
});

describe('fal.ai taking too long', () => {
  let slow: Awaited<ReturnType<typeof startPipeline>>;
  beforeAll(async () => {
    slow = await startPipeline({ FAL_KEY: fal.key, FAL_BASE_URL: fal.baseUrl, PROVIDER_TIMEOUT_SECONDS: '1' });
  });
  afterAll(async () => {
    await slow.stop();
  });

  it('resumes the same request on every attempt (never paid twice), then fails with the timeout and cancels it', async () => {
    fal.outcome = 'never';
    const { cookie } = await payingUser(slow.t);
    const before = fal.requests.length;
    const { row } = await followJob(slow.t, (await startGeneration(slow.t, cookie, { model: 'fal-veo3-fast' })).id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, errorMessage: PROVIDER_TIMEOUT_MESSAGE });
    expect(fal.requests.length - before).toBe(1);
    const id = fal.requests.at(-1)?.id ?? '';
    // After the last attempt nothing will resume it: the request is cancelled at fal.ai.
    await waitUntil(() => fal.cancelled.includes(id));
    expect(fal.cancelled.filter((c) => c === id)).toHaveLength(1);
  });
});
