import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEngineContext,
  createEngineJob,
  type FakeServer,
  failureOf,
  type Reply,
  removeEngineWorkDirs,
  startFakeServer,
} from '../../../tests/support/fake-provider';
import { AbortedError, EngineError } from './engine';
import { createKlingEngine } from './kling-engine';

// A local server answering like Kling's official API (as src/server/engines/kling-engine.ts calls it).

const ACCESS_KEY = 'test-access-key';
const SECRET_KEY = 'test-secret-key';
const MODEL = 'kling-v2-1-master';
const TASK_ID = '867234567890';
const VIDEO = randomBytes(40 * 1024);
const IMAGE = randomBytes(2 * 1024);

let fake: FakeServer;
const klingJob = (overrides: Parameters<typeof createEngineJob>[0] = {}) =>
  createEngineJob({ prompt: 'a paper boat on a rainy street', duration: 5, ...overrides });

beforeEach(async () => {
  fake = await startFakeServer();
});

afterEach(async () => {
  await fake.close();
  removeEngineWorkDirs();
});

type Claims = { iss: string; exp: number; nbf: number };

/** The JWT's payload when it is HS256 and its signature checks out with the secret key, else null. */
function verifiedClaims(authorization: string | undefined): Claims | null {
  const [header, payload, signature] = (authorization ?? '').replace(/^Bearer /, '').split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', SECRET_KEY).update(`${header}.${payload}`).digest('base64url');
  if (signature !== expected) return null;
  // No expect() here: it runs inside the server, where a throw would leave the request hanging.
  const { alg, typ } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string; typ?: string };
  if (alg !== 'HS256' || typ !== 'JWT') return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
}

const klingError = (status: number, code: number, message: string): Reply => ({
  status,
  json: { code, message, request_id: 'req-1' },
});
const task = (fields: object): Reply => ({
  status: 200,
  json: {
    code: 0,
    message: 'SUCCEED',
    request_id: 'req-1',
    data: { task_id: TASK_ID, created_at: 1722769557708, updated_at: 1722769557708, ...fields },
  },
});

/** Routes for one run: replies queued before the create succeeds, unfinished polls, and the finished task. */
function fakeKling(
  options: {
    startFailures?: Reply[];
    pollFailures?: Reply[];
    unfinishedPolls?: number;
    finished?: object;
    onPoll?: () => void;
  } = {},
) {
  const startFailures = [...(options.startFailures ?? [])];
  const pollFailures = [...(options.pollFailures ?? [])];
  let polls = 0;
  fake.route = (request) => {
    if (request.path === '/cdn/output.mp4') return { status: 200, bytes: VIDEO };
    const claims = verifiedClaims(request.headers.authorization);
    if (claims?.iss !== ACCESS_KEY) return klingError(401, 1002, 'Authorization is invalid');
    const created = /^\/v1\/videos\/(text2video|image2video|omni-video|video-extend)$/.exec(request.path);
    if (request.method === 'POST' && created) {
      return startFailures.shift() ?? task({ task_status: 'submitted', task_info: { external_task_id: 'job-1' } });
    }
    if (request.method === 'GET' && request.path.endsWith(`/${TASK_ID}`)) {
      options.onPoll?.();
      const failure = pollFailures.shift();
      if (failure) return failure;
      polls += 1;
      if (polls <= (options.unfinishedPolls ?? 1)) return task({ task_status: 'processing' });
      const succeeded = {
        task_status: 'succeed',
        task_result: { videos: [{ id: 'v1', url: `${fake.baseUrl}/cdn/output.mp4`, duration: '5' }] },
      };
      return task(options.finished ?? succeeded);
    }
    return klingError(404, 1203, `no route ${request.method} ${request.path}`);
  };
}

const engine = (overrides: { timeoutMs?: number; pollIntervalMs?: number } = {}) =>
  createKlingEngine({
    accessKey: ACCESS_KEY,
    secretKey: SECRET_KEY,
    baseUrl: fake.baseUrl,
    model: MODEL,
    pollIntervalMs: 10,
    timeoutMs: 5000,
    retryBaseDelayMs: 5,
    ...overrides,
  });

const starts = () => fake.received.filter((request) => request.method === 'POST');

describe('Kling engine', () => {
  it('creates a text-to-video task with a signed token, polls it and downloads the video', async () => {
    fakeKling({ unfinishedPolls: 2 });
    const { context, progress, saved } = createEngineContext();
    const job = klingJob({ duration: 10, settings: { aspectRatio: '9:16', negativePrompt: 'blurry', seed: 7 } });

    const result = await engine().render(job, context);

    expect(result.filePath).toBe(path.join(context.workDir, 'kling-output.mp4'));
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    const [start] = starts();
    expect(start?.path).toBe('/v1/videos/text2video');
    const claims = verifiedClaims(start?.headers.authorization);
    const now = Date.now() / 1000;
    expect(claims?.iss).toBe(ACCESS_KEY);
    expect(claims?.nbf).toBeLessThanOrEqual(now);
    expect(claims?.exp).toBeGreaterThan(now + 1700);
    expect(JSON.parse(start?.body ?? '')).toEqual({
      model_name: MODEL,
      prompt: 'a paper boat on a rainy street',
      negative_prompt: 'blurry',
      cfg_scale: 0.5,
      mode: 'std',
      aspect_ratio: '9:16',
      duration: '10',
      external_task_id: 'job-1',
    });
    expect(saved).toEqual([`text2video:${TASK_ID}`]);
    expect(fake.received.filter((request) => request.path === `/v1/videos/text2video/${TASK_ID}`)).toHaveLength(3);
    expect(fake.received.find((request) => request.path === '/cdn/output.mp4')?.headers.authorization).toBeUndefined();
    expect(progress.map((entry) => entry.stage)).toEqual(
      expect.arrayContaining(['Queued at Kling', 'Generating with Kling', 'Downloading video']),
    );
  });

  it('sends an image as raw base64 to image2video and cuts the prompt to 2500 characters', async () => {
    fakeKling();
    const { context, saved } = createEngineContext();
    const image = {
      contentType: 'image/jpeg',
      url: 'https://app.example/m/2',
      open: async () => Readable.from([IMAGE]),
    };
    await engine().render(klingJob({ prompt: 'x'.repeat(3000), inputs: { image } }), context);
    const [start] = starts();
    expect(start?.path).toBe('/v1/videos/image2video');
    const body = JSON.parse(start?.body ?? '');
    expect(body).toMatchObject({ image: IMAGE.toString('base64'), aspect_ratio: '16:9', duration: '5' });
    expect(body.prompt).toHaveLength(2500);
    expect(saved).toEqual([`image2video:${TASK_ID}`]);
  });

  // Kling API text2video/image2video: `camera_control` {type: "simple", config: {horizontal, vertical, pan,
  // tilt, roll, zoom}}, one non-zero field in -10..10 (pan rotates in the vertical plane, tilt in the
  // horizontal one); `mode` std renders 720p, pro 1080p.
  it.each([
    ['pan-left', { tilt: -5 }],
    ['pan-right', { tilt: 5 }],
    ['tilt-up', { pan: 5 }],
    ['tilt-down', { pan: -5 }],
    ['dolly-in', { zoom: -5 }],
    ['dolly-out', { zoom: 5 }],
    ['crane', { vertical: 5 }],
  ] as const)('sends %s as Kling camera control, and 1080p as pro mode', async (move, axis) => {
    fakeKling();
    const job = klingJob({ settings: { cameraMove: move, resolution: '1080p', aspectRatio: '1:1' } });
    await engine().render(job, createEngineContext().context);
    expect(JSON.parse(starts()[0]?.body ?? '')).toEqual({
      model_name: MODEL,
      prompt: 'a paper boat on a rainy street',
      cfg_scale: 0.5,
      mode: 'pro',
      aspect_ratio: '1:1',
      duration: '5',
      camera_control: {
        type: 'simple',
        config: { horizontal: 0, vertical: 0, pan: 0, tilt: 0, roll: 0, zoom: 0, ...axis },
      },
      external_task_id: 'job-1',
    });
  });

  it('writes a move Kling camera control has no simple form for (orbit, handheld, static) into the prompt', async () => {
    fakeKling();
    await engine().render(klingJob({ settings: { cameraMove: 'orbit' } }), createEngineContext().context);
    const body = JSON.parse(starts()[0]?.body ?? '');
    expect(body.camera_control).toBeUndefined();
    expect(body.mode).toBe('std');
    expect(body.prompt).toBe(
      'a paper boat on a rainy street\n\nCamera: The camera orbits around the subject in a slow arc.',
    );
  });

  it('edits a video through omni-video with its signed URL', async () => {
    fakeKling();
    const { context, saved } = createEngineContext();
    const video = {
      contentType: 'video/mp4',
      url: 'https://app.example/m/3?sig=abc',
      open: async () => Readable.from([]),
    };
    await engine().render(klingJob({ hasAudio: true, inputs: { video } }), context);
    const [start] = starts();
    expect(start?.path).toBe('/v1/videos/omni-video');
    expect(JSON.parse(start?.body ?? '')).toMatchObject({
      prompt: 'a paper boat on a rainy street',
      video_list: [{ video_url: 'https://app.example/m/3?sig=abc', refer_type: 'base', keep_original_sound: 'yes' }],
      external_task_id: 'job-1',
    });
    expect(saved).toEqual([`omni-video:${TASK_ID}`]);
  });

  it('retries a rate limit (429 code 1302) and a 500 while polling, then succeeds', async () => {
    fakeKling({
      startFailures: [klingError(429, 1302, 'Too many requests')],
      pollFailures: [klingError(500, 5000, 'Server error')],
    });
    const result = await engine().render(klingJob(), createEngineContext().context);
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    expect(starts()).toHaveLength(2);
  });

  it.each([
    { status: 400, code: 1201, message: 'Kling refused this request. duration is invalid' },
    { status: 429, code: 1102, message: expect.stringContaining('resource pack') },
    { status: 401, code: 1002, message: 'Kling rejected the API keys.' },
  ])('fails at once without retrying on HTTP $status code $code', async ({ status, code, message }) => {
    fakeKling({ startFailures: Array.from({ length: 4 }, () => klingError(status, code, 'duration is invalid')) });
    const error = await failureOf(engine().render(klingJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ retryable: false, message });
    expect(starts()).toHaveLength(1);
  });

  it('reports a content safety refusal (400 code 1301) with Kling’s message', async () => {
    fakeKling({ startFailures: [klingError(400, 1301, 'The prompt violates the content policy')] });
    const error = await failureOf(engine().render(klingJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable: false,
      message: 'Kling refused this prompt for safety reasons: The prompt violates the content policy',
    });
  });

  it('fails with the reason Kling gave when the task fails', async () => {
    fakeKling({ finished: { task_status: 'failed', task_status_msg: 'Image recognition failed' } });
    const error = await failureOf(engine().render(klingJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable: false,
      message: 'Kling could not make this video: Image recognition failed',
    });
  });

  it('gives up with a retryable error when the task never finishes', async () => {
    fakeKling({ unfinishedPolls: Number.POSITIVE_INFINITY });
    const error = await failureOf(
      engine({ timeoutMs: 300, pollIntervalMs: 20 }).render(klingJob(), createEngineContext().context),
    );
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable: true,
      message: 'The video provider took too long to answer. Please try again.',
    });
  });

  it('resumes a saved task on the endpoint it was created on, without creating a new one', async () => {
    fakeKling();
    const { context, saved } = createEngineContext();
    const result = await engine().render(klingJob({ providerTaskId: `image2video:${TASK_ID}` }), context);
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    expect(starts()).toHaveLength(0);
    expect(saved).toEqual([]);
    expect(fake.received[0]?.path).toBe(`/v1/videos/image2video/${TASK_ID}`);
  });

  describe('video-extend', () => {
    // Kling's POST /v1/videos/video-extend: `video_id` (the id of a video Kling made, from its finished
    // task's task_result.videos[].id), prompt, negative_prompt, cfg_scale, callback_url; polled at
    // GET /v1/videos/video-extend/{task_id} (https://docs.comfy.org/built-in-nodes/KlingVideoExtendNode,
    // https://docs.comfy.org/ja/development/comfy-router/models/kling/videos-video-extend/code).
    const ORIGINAL_TASK = '860000000001';
    /** The finished task that made the original, as Kling answers it: its video's id is what video-extend takes. */
    function withOriginal(
      finished: object = {
        task_status: 'succeed',
        task_result: { videos: [{ id: '8601', url: `${fake.baseUrl}/cdn/original.mp4`, duration: '5' }] },
      },
    ) {
      const inner = fake.route;
      fake.route = (request) =>
        request.method === 'GET' && request.path === `/v1/videos/image2video/${ORIGINAL_TASK}`
          ? task({ ...finished, task_id: ORIGINAL_TASK })
          : inner(request);
    }

    it('reads the original’s video id from the task that made it and extends that video', async () => {
      fakeKling();
      withOriginal();
      const { context, saved } = createEngineContext();
      const job = klingJob({
        extendFrom: { providerTaskId: `image2video:${ORIGINAL_TASK}` },
        settings: { cameraMove: 'dolly-in', negativePrompt: 'rain', aspectRatio: '9:16', resolution: '1080p' },
      });

      const result = await engine().render(job, context);

      expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
      const [start] = starts();
      expect(start?.path).toBe('/v1/videos/video-extend');
      // No model, length, shape or camera control in its schema: the move goes into the prompt.
      expect(JSON.parse(start?.body ?? '')).toEqual({
        video_id: '8601',
        prompt: 'a paper boat on a rainy street\n\nCamera: Slow dolly in: the camera moves forward toward the subject.',
        negative_prompt: 'rain',
        cfg_scale: 0.5,
      });
      expect(saved).toEqual([`video-extend:${TASK_ID}`]);
      expect(fake.received.some((request) => request.path === `/v1/videos/video-extend/${TASK_ID}`)).toBe(true);
    });

    it('resumes a saved video-extend task without reading the original or creating a new task', async () => {
      fakeKling();
      const { context, saved } = createEngineContext();
      const job = klingJob({
        extendFrom: { providerTaskId: `image2video:${ORIGINAL_TASK}` },
        providerTaskId: `video-extend:${TASK_ID}`,
      });
      const result = await engine().render(job, context);
      expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
      expect(starts()).toHaveLength(0);
      expect(saved).toEqual([]);
      expect(fake.received.map((request) => request.path)).toContain(`/v1/videos/video-extend/${TASK_ID}`);
      expect(fake.received.some((request) => request.path.includes(ORIGINAL_TASK))).toBe(false);
    });

    it('fails without retrying or extending when the original’s task has no video', async () => {
      fakeKling();
      withOriginal({ task_status: 'failed', task_status_msg: 'gone' });
      const job = klingJob({ extendFrom: { providerTaskId: `image2video:${ORIGINAL_TASK}` } });
      const error = await failureOf(engine().render(job, createEngineContext().context));
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({
        retryable: false,
        message: expect.stringContaining('Kling no longer has the original video'),
      });
      expect(starts()).toHaveLength(0);
    });
  });

  it('stops with AbortedError when the signal fires while polling', async () => {
    const controller = new AbortController();
    fakeKling({ unfinishedPolls: Number.POSITIVE_INFINITY, onPoll: () => controller.abort() });
    const error = await failureOf(engine().render(klingJob(), createEngineContext(controller).context));
    expect(error).toBeInstanceOf(AbortedError);
    expect(fake.received.filter((request) => request.method === 'GET')).toHaveLength(1);
  });
});
