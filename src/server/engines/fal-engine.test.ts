import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import {
  createEngineContext,
  createEngineJob,
  type FakeServer,
  failureOf,
  removeEngineWorkDirs,
  startFakeServer,
} from '../../../tests/support/fake-provider';
import { EngineError, type EngineInput } from './engine';
import { createFalEngine, type FalModel, onQueue } from './fal-engine';

// The fal.ai engine against the queue stand-in (tests/support/fake-fal.ts, written from fal's queue
// documentation and @fal-ai/client): the URLs of fal's submit answer, the host they may point at, and the
// fields each endpoint's documented input schema lists.

/**
 * Input fields of fal's Kling 2.1 Master endpoints, from their model pages:
 * https://fal.ai/models/fal-ai/kling-video/v2.1/master/image-to-video/llms.txt (no aspect_ratio) and
 * https://fal.ai/models/fal-ai/kling-video/v2.1/master/text-to-video/llms.txt.
 */
const KLING_IMAGE_FIELDS = ['prompt', 'image_url', 'duration', 'negative_prompt', 'cfg_scale'];
const KLING_TEXT_FIELDS = ['prompt', 'duration', 'aspect_ratio', 'negative_prompt', 'cfg_scale'];

let fal: FakeFal;

beforeEach(async () => {
  fal = await startFakeFal(randomBytes(32 * 1024));
  fal.stepMs = 20;
});
afterEach(async () => {
  await fal.close();
  removeEngineWorkDirs();
});

const model = (textEndpoint: string, imageEndpoint: string | null = null): FalModel => ({
  id: 'fal-test',
  name: 'Test model (fal.ai)',
  family: 'wan',
  textEndpoint,
  imageEndpoint,
});
const engineFor = (falModel: FalModel, baseUrl = fal.baseUrl) =>
  createFalEngine({ apiKey: fal.key, baseUrl, model: falModel, pollIntervalMs: 10, timeoutMs: 10_000 });
const image: EngineInput = {
  contentType: 'image/png',
  url: 'https://reelsmith.example/api/media/abc?sig=1',
  open: async () => Readable.from([Buffer.from('png')]),
};

describe('fal.ai queue URLs', () => {
  it.each([
    ['workflows/acme/keyframes', 'workflows/acme/keyframes'],
    ['comfy/acme/wan-flf/video', 'comfy/acme/wan-flf'],
  ])(
    'follows the URLs fal’s submit answer gives for %s (app id %s), and saves them to resume',
    async (endpoint, app) => {
      const { context, saved } = createEngineContext();
      const result = await engineFor(model(endpoint)).render(createEngineJob({ duration: 5 }), context);
      expect(existsSync(result.filePath)).toBe(true);

      const id = fal.requests.at(-1)?.id ?? '';
      expect(fal.requests).toHaveLength(1);
      expect(fal.requests[0]?.endpoint).toBe(endpoint);
      const paths = fal.server.received.filter((r) => r.method === 'GET').map((r) => r.path);
      expect(paths).toContain(`/${app}/requests/${id}/status?logs=1`);
      expect(paths).toContain(`/${app}/requests/${id}`);
      expect(saved.map((s) => JSON.parse(s) as unknown)).toEqual([
        {
          requestId: id,
          statusUrl: `${fal.baseUrl}/${app}/requests/${id}/status`,
          responseUrl: `${fal.baseUrl}/${app}/requests/${id}`,
          cancelUrl: `${fal.baseUrl}/${app}/requests/${id}/cancel`,
        },
      ]);
    },
  );

  it('never sends the key to URLs outside the configured queue: the job fails and the request is cancelled on the queue', async () => {
    const elsewhere: FakeServer = await startFakeServer();
    try {
      elsewhere.route = () => ({ status: 200, json: { status: 'COMPLETED' } });
      fal.answerUrlBase = elsewhere.baseUrl;
      const { context, saved } = createEngineContext();
      const error = await failureOf(
        engineFor(model('fal-ai/wan/v2.2-5b/text-to-video')).render(createEngineJob(), context),
      );
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({ message: 'fal.ai sent an answer we could not read.', retryable: false });
      expect(elsewhere.received).toEqual([]);
      expect(saved).toEqual([]);
      // Submitted once, then cancelled at the documented path of the queue we were configured with.
      expect(fal.requests).toHaveLength(1);
      expect(fal.cancelled).toEqual([fal.requests[0]?.id]);
    } finally {
      await elsewhere.close();
    }
  });

  it('resumes a request saved in the older `<app id>|<request id>` form on the documented paths, without submitting again', async () => {
    const submitted = await fetch(`${fal.baseUrl}/fal-ai/veo3/image-to-video`, {
      method: 'POST',
      headers: { authorization: `Key ${fal.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a cat' }),
    });
    const { request_id: id } = (await submitted.json()) as { request_id: string };
    const { context } = createEngineContext();
    const result = await engineFor(model('fal-ai/veo3', 'fal-ai/veo3/image-to-video')).render(
      createEngineJob({ providerTaskId: `fal-ai/veo3|${id}` }),
      context,
    );
    expect(existsSync(result.filePath)).toBe(true);
    expect(fal.requests).toHaveLength(1);
  });

  it('accepts only URLs on the configured queue’s scheme, host, port and path', () => {
    const base = 'https://queue.fal.run';
    expect(onQueue(base, 'https://queue.fal.run/fal-ai/veo3/requests/1/status')).toBe(
      'https://queue.fal.run/fal-ai/veo3/requests/1/status',
    );
    for (const hostile of [
      'https://queue.fal.run.example.com/fal-ai/veo3/requests/1',
      'http://queue.fal.run/fal-ai/veo3/requests/1',
      'https://queue.fal.run:8443/fal-ai/veo3/requests/1',
      'https://queue.fal.run@example.com/fal-ai/veo3/requests/1',
      'https://user:pass@queue.fal.run/fal-ai/veo3/requests/1',
      'https://example.com/?https://queue.fal.run/',
      '/fal-ai/veo3/requests/1',
      'not a url',
    ])
      expect(onQueue(base, hostile), hostile).toBeNull();
    expect(onQueue('http://127.0.0.1:4000/fal/', 'http://127.0.0.1:4000/fal/a/b/requests/1')).not.toBeNull();
    expect(onQueue('http://127.0.0.1:4000/fal', 'http://127.0.0.1:4000/other/a/b/requests/1')).toBeNull();
  });
});

describe('fal.ai Kling 2.1 input', () => {
  const kling: FalModel = {
    id: 'fal-kling-2.1',
    name: 'Kling 2.1 Master (fal.ai)',
    family: 'kling',
    textEndpoint: 'fal-ai/kling-video/v2.1/master/text-to-video',
    imageEndpoint: 'fal-ai/kling-video/v2.1/master/image-to-video',
  };
  const settings = { aspectRatio: '9:16' as const, negativePrompt: 'blurry' };

  it('sends image-to-video only the fields its input schema lists (no aspect_ratio)', async () => {
    const { context } = createEngineContext();
    await engineFor(kling).render(createEngineJob({ duration: 5, settings, inputs: { image } }), context);
    const sent = fal.requests.at(-1);
    expect(sent?.endpoint).toBe(kling.imageEndpoint);
    expect(Object.keys(sent?.input ?? {}).filter((key) => !KLING_IMAGE_FIELDS.includes(key))).toEqual([]);
    expect(sent?.input).toMatchObject({ prompt: 'a cat surfing at sunset', image_url: image.url, duration: '5' });
  });

  it('sends text-to-video its aspect ratio, and only listed fields', async () => {
    const { context } = createEngineContext();
    await engineFor(kling).render(createEngineJob({ duration: 10, settings }), context);
    const sent = fal.requests.at(-1);
    expect(sent?.endpoint).toBe(kling.textEndpoint);
    expect(Object.keys(sent?.input ?? {}).filter((key) => !KLING_TEXT_FIELDS.includes(key))).toEqual([]);
    expect(sent?.input).toMatchObject({ aspect_ratio: '9:16', duration: '10', negative_prompt: 'blurry' });
  });
});

describe('fal.ai Veo 3.1 extend input', () => {
  const veo: FalModel = {
    ...model('fal-ai/veo3.1', 'fal-ai/veo3.1/image-to-video'),
    family: 'veo',
    extendEndpoint: 'fal-ai/veo3.1/extend-video',
  };
  const video: EngineInput = { ...image, contentType: 'video/mp4', url: 'https://reelsmith.example/api/media/v?sig=2' };
  const settings = { aspectRatio: '16:9' as const, resolution: '1080p' as const, negativePrompt: 'blurry' };

  it('sends the video to extend as video_url with its documented fields (the negative prompt too, no seed)', async () => {
    const { context } = createEngineContext();
    await engineFor(veo).render(
      createEngineJob({ duration: 8, hasAudio: false, settings: { ...settings, seed: 3 }, extendVideo: video }),
      context,
    );
    expect(fal.refused).toEqual([]);
    expect(fal.requests.at(-1)).toMatchObject({
      endpoint: 'fal-ai/veo3.1/extend-video',
      input: {
        video_url: video.url,
        aspect_ratio: '16:9',
        resolution: '1080p',
        duration: '7s',
        generate_audio: false,
        negative_prompt: 'blurry',
      },
    });
    expect(fal.requests.at(-1)?.input).not.toHaveProperty('seed');
  });

  it('refuses a video to extend on a model without an extend call, submitting nothing', async () => {
    const { context } = createEngineContext();
    const failure = await failureOf(
      engineFor({ ...veo, extendEndpoint: null }).render(createEngineJob({ extendVideo: video }), context),
    );
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({
      retryable: false,
      message: 'Test model (fal.ai) has no extend call on this server. Extend the original video again.',
    });
    expect(fal.requests).toEqual([]);
  });
});
