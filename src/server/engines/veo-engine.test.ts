import { randomBytes } from 'node:crypto';
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
import { createVeoEngine } from './veo-engine';

// A local server answering like the Gemini API's Veo endpoints (as src/server/engines/veo-engine.ts calls them).

const API_KEY = 'test-gemini-key';
const MODEL = 'veo-3.0-generate-001';
const OPERATION = `models/${MODEL}/operations/op-123`;
const VIDEO = randomBytes(48 * 1024);
const IMAGE = randomBytes(3 * 1024);

let fake: FakeServer;

beforeEach(async () => {
  fake = await startFakeServer();
});

afterEach(async () => {
  await fake.close();
  removeEngineWorkDirs();
});

const googleError = (code: number, status: string, message: string): Reply => ({
  status: code,
  json: { error: { code, message, status } },
});
const success = {
  response: {
    generateVideoResponse: {
      generatedSamples: [{ video: { uri: 'https://x/v1beta/files/abc123:download?alt=media' } }],
    },
  },
};

/** Routes for one run: replies queued before the start succeeds, unfinished polls, and the finished operation. */
function fakeVeo(
  options: {
    startFailures?: Reply[];
    pollFailures?: Reply[];
    unfinishedPolls?: number;
    done?: object;
    onPoll?: () => void;
  } = {},
) {
  const startFailures = [...(options.startFailures ?? [])];
  const pollFailures = [...(options.pollFailures ?? [])];
  let polls = 0;
  fake.route = (request) => {
    if (request.method === 'POST' && request.path === `/v1beta/models/${MODEL}:predictLongRunning`) {
      return startFailures.shift() ?? { status: 200, json: { name: OPERATION } };
    }
    if (request.method === 'GET' && request.path === `/v1beta/${OPERATION}`) {
      options.onPoll?.();
      const failure = pollFailures.shift();
      if (failure) return failure;
      polls += 1;
      if (polls <= (options.unfinishedPolls ?? 1)) return { status: 200, json: { name: OPERATION } };
      return { status: 200, json: { name: OPERATION, done: true, ...(options.done ?? success) } };
    }
    if (request.path === '/v1beta/files/abc123:download?alt=media') {
      if (request.headers['x-goog-api-key'] !== API_KEY) return googleError(403, 'PERMISSION_DENIED', 'no key');
      return { status: 302, location: '/storage/abc123.mp4' };
    }
    if (request.path === '/storage/abc123.mp4') return { status: 200, bytes: VIDEO };
    return googleError(404, 'NOT_FOUND', `no route ${request.method} ${request.path}`);
  };
}

const engine = (overrides: { timeoutMs?: number; pollIntervalMs?: number; baseUrl?: string } = {}) =>
  createVeoEngine({
    apiKey: API_KEY,
    baseUrl: fake.baseUrl,
    model: MODEL,
    pollIntervalMs: 10,
    timeoutMs: 5000,
    retryBaseDelayMs: 5,
    ...overrides,
  });

const starts = () => fake.received.filter((request) => request.method === 'POST');

describe('Veo engine', () => {
  it('starts an operation with the image and settings, polls it and downloads the video', async () => {
    fakeVeo({ unfinishedPolls: 2 });
    const { context, progress, saved } = createEngineContext();
    const job = createEngineJob({
      settings: { aspectRatio: '9:16', resolution: '1080p', negativePrompt: 'blurry', seed: 42 },
      inputs: {
        image: { contentType: 'image/png', url: 'https://app.example/m/1', open: async () => Readable.from([IMAGE]) },
      },
    });

    const result = await engine({ baseUrl: `${fake.baseUrl}/` }).render(job, context);

    expect(result.filePath).toBe(path.join(context.workDir, 'veo-output.mp4'));
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    const [start] = starts();
    expect(start?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(JSON.parse(start?.body ?? '')).toEqual({
      instances: [
        {
          prompt: 'a cat surfing at sunset',
          image: { bytesBase64Encoded: IMAGE.toString('base64'), mimeType: 'image/png' },
        },
      ],
      parameters: {
        aspectRatio: '9:16',
        durationSeconds: 8,
        resolution: '1080p',
        negativePrompt: 'blurry',
        personGeneration: 'allow_adult',
        sampleCount: 1,
      },
    });
    expect(saved).toEqual([OPERATION]);
    expect(fake.received.filter((request) => request.path === `/v1beta/${OPERATION}`)).toHaveLength(3);
    expect(progress.map((entry) => entry.stage)).toEqual(
      expect.arrayContaining(['Queued at Google Veo', 'Generating with Veo 3', 'Downloading video']),
    );
    expect(progress.every((entry) => entry.progress >= 10 && entry.progress <= 90)).toBe(true);
  });

  it('asks for 16:9 at 720p when the settings ask for a square or nothing', async () => {
    fakeVeo();
    const { context } = createEngineContext();
    await engine().render(
      createEngineJob({ duration: 4, settings: { aspectRatio: '1:1', resolution: '480p' } }),
      context,
    );
    const body = JSON.parse(starts()[0]?.body ?? '');
    expect(body.instances[0]).toEqual({ prompt: 'a cat surfing at sunset' });
    expect(body.parameters).toMatchObject({ aspectRatio: '16:9', resolution: '720p', durationSeconds: 4 });
    expect(body.parameters).not.toHaveProperty('negativePrompt');
  });

  it('retries a 429 on start and a 503 while polling, then succeeds', async () => {
    fakeVeo({
      startFailures: [googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded')],
      pollFailures: [googleError(503, 'UNAVAILABLE', 'try later')],
    });
    const { context } = createEngineContext();
    const result = await engine().render(createEngineJob(), context);
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    expect(starts()).toHaveLength(2);
  });

  it('gives up with a retryable error after four 5xx answers', async () => {
    fakeVeo({ startFailures: Array.from({ length: 10 }, () => googleError(500, 'INTERNAL', 'boom')) });
    const error = await failureOf(engine().render(createEngineJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ retryable: true });
    expect(starts()).toHaveLength(4);
  });

  it('fails at once on a 400 without retrying', async () => {
    fakeVeo({
      startFailures: Array.from({ length: 4 }, () =>
        googleError(400, 'INVALID_ARGUMENT', 'durationSeconds is out of bound'),
      ),
    });
    const error = await failureOf(engine().render(createEngineJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable: false,
      message: expect.stringContaining('durationSeconds is out of bound'),
    });
    expect(starts()).toHaveLength(1);
  });

  it('reports a safety block with the reason Google gave', async () => {
    const reason = 'The prompt contains a famous person, which is not allowed.';
    fakeVeo({
      done: { response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: [reason] } } },
    });
    const error = await failureOf(engine().render(createEngineJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ retryable: false, message: `Veo blocked this video: ${reason}` });
  });

  it.each([
    { code: 3, retryable: false },
    { code: 14, retryable: true },
  ])('fails with a readable message when the operation ends in error $code', async ({ code, retryable }) => {
    fakeVeo({ done: { error: { code, message: 'The input image could not be processed.' } } });
    const error = await failureOf(engine().render(createEngineJob(), createEngineContext().context));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable,
      message: 'Veo could not make this video: The input image could not be processed.',
    });
  });

  it('gives up with a retryable error when the operation never finishes', async () => {
    fakeVeo({ unfinishedPolls: Number.POSITIVE_INFINITY });
    const startedAt = Date.now();
    const error = await failureOf(
      engine({ timeoutMs: 300, pollIntervalMs: 20 }).render(createEngineJob(), createEngineContext().context),
    );
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      retryable: true,
      message: 'The video provider took too long to answer. Please try again.',
    });
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });

  it('resumes a saved operation without starting a new one', async () => {
    fakeVeo();
    const { context, saved } = createEngineContext();
    const result = await engine().render(createEngineJob({ providerTaskId: OPERATION }), context);
    expect(readFileSync(result.filePath).equals(VIDEO)).toBe(true);
    expect(starts()).toHaveLength(0);
    expect(saved).toEqual([]);
  });

  it('stops with AbortedError when the signal fires while polling', async () => {
    const controller = new AbortController();
    fakeVeo({ unfinishedPolls: Number.POSITIVE_INFINITY, onPoll: () => controller.abort() });
    const error = await failureOf(engine().render(createEngineJob(), createEngineContext(controller).context));
    expect(error).toBeInstanceOf(AbortedError);
    expect(fake.received.filter((request) => request.method === 'GET')).toHaveLength(1);
  });
});
