import { readFileSync } from 'node:fs';
import { startTestWorker } from '../../../tests/support/pipeline';
import { independentlyRead } from '../../../tests/support/credentials';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../tests/support/factories';
import { type FakeServer, type Reply, startFakeServer } from '../../../tests/support/fake-provider';
import { makeMediaFixtures, probeBytes } from '../../../tests/support/media';
import type { GenerationRecord, ModelInfo } from '../../shared/generations';
import { creditLedger, generations, users } from '../db/schema';
import type { Worker } from './worker';

// The whole pipeline with Veo 3, against a local server speaking the Gemini API's wire format.
const MODEL = 'veo-3.0-generate-001';
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));

let fake: FakeServer;
let t: TestApp;
let worker: Worker;
let clip: Buffer;
let operations = 0;

/** How the fake answers each operation's polls: by the operation's number (1 for the first start). */
let pollReply: (operation: number, poll: number) => Reply;
const polls = new Map<number, number>();

function veoRoutes(request: { method: string; path: string }): Reply {
  if (request.method === 'POST' && request.path === `/v1beta/models/${MODEL}:predictLongRunning`) {
    operations += 1;
    return { status: 200, json: { name: `models/${MODEL}/operations/op-${operations}` } };
  }
  const poll = /^\/v1beta\/models\/[^/]+\/operations\/op-(\d+)$/.exec(request.path);
  if (request.method === 'GET' && poll) {
    const operation = Number(poll[1]);
    const count = (polls.get(operation) ?? 0) + 1;
    polls.set(operation, count);
    return pollReply(operation, count);
  }
  if (request.path.startsWith('/v1beta/files/clip:download')) return { status: 200, bytes: clip };
  return { status: 404, json: { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } } };
}

const done = (response: object): Reply => ({ status: 200, json: { name: 'x', done: true, response } });
const video = done({
  generateVideoResponse: { generatedSamples: [{ video: { uri: 'https://x/v1beta/files/clip:download?alt=media' } }] },
});

beforeAll(async () => {
  fake = await startFakeServer();
  fake.route = veoRoutes;
  clip = (await makeMediaFixtures()).video;
  t = await createTestApp({
    GEMINI_API_KEY: 'test-key',
    GEMINI_BASE_URL: fake.baseUrl,
    VEO_MODEL: MODEL,
    PROVIDER_POLL_SECONDS: '0.02',
    PROVIDER_TIMEOUT_SECONDS: '10',
    PROVIDER_RETRY_DELAY_MS: '5',
  });
  worker = startTestWorker(t);
});
afterAll(async () => {
  await worker.stop(1000);
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.received = [];
  operations = 0;
  polls.clear();
});

async function waitForEnd(id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
    if (row?.status === 'completed' || row?.status === 'failed') return row;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function payingUser() {
  const user = await createUser(t.db, { creditsHundredths: 300 });
  return { user, cookie: await signIn(t.app, user) };
}

async function generate(body: object, as?: Awaited<ReturnType<typeof payingUser>>) {
  const { user, cookie } = as ?? (await payingUser());
  const response = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A cat surfing', ...body },
  });
  expect(response.statusCode).toBe(201);
  return { user, cookie, row: await waitForEnd(response.json<GenerationRecord>().id) };
}
const starts = () => fake.received.filter((r) => r.method === 'POST');

describe('Veo 3 through the pipeline', () => {
  it('is the default model with a key, sends the image, and stores the video without sound when audio is off', async () => {
    pollReply = (_op, poll) => (poll < 2 ? { status: 200, json: { name: 'x' } } : video);
    const user = await createUser(t.db);
    const cookie = await signIn(t.app, user);
    const { models } = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>();
    expect(models.find((m) => m.isDefault)?.id).toBe('veo3');

    const owner = await payingUser();
    const imageFile = await uploadFile(t.app, owner.cookie, PNG);
    await generate({ prompt: 'The cat looks up', imageFile, hasAudio: false, duration: 10 }, owner);
    const [record] = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie: owner.cookie })).json<
      GenerationRecord[]
    >();
    expect(record).toMatchObject({ status: 'completed', model: 'veo3' });
    const body = JSON.parse(starts()[0]?.body ?? '{}') as {
      instances: { prompt: string; image: { bytesBase64Encoded: string } }[];
      parameters: { durationSeconds: number };
    };
    expect(body.instances[0]?.prompt).toBe('The cat looks up');
    expect(Buffer.from(body.instances[0]?.image.bytesBase64Encoded ?? '', 'base64').equals(PNG)).toBe(true);
    // 10 s asked; Veo renders 4, 6 or 8: the nearest is sent, and the record shows the file's real length.
    expect(body.parameters.durationSeconds).toBe(8);
    const output = await t.app.inject({ method: 'GET', url: record?.outputVideoUrl ?? '' });
    const info = await probeBytes(output.rawPayload);
    expect(info.audio).toBeNull();
    // Signed as Veo's AI render, and valid to a reader independent of the signer.
    expect(await independentlyRead(output.rawPayload)).toMatchObject({
      valid: true,
      sourceType: 'trainedAlgorithmicMedia',
    });
    expect(record?.duration).toBeCloseTo(info.durationSeconds, 1);
  });

  it('fails a safety block at once with its reason, without a refund', async () => {
    pollReply = () =>
      done({
        generateVideoResponse: {
          raiMediaFilteredCount: 1,
          raiMediaFilteredReasons: ['The prompt names a real person.'],
        },
      });
    const { user, row } = await generate({});
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorMessage: 'Veo blocked this video: The prompt names a real person.',
    });
    expect(starts()).toHaveLength(1);
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths).toBe(200);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(1);
  });

  it('tries a failing task 3 times, starting a new task each time, then fails with a readable message', async () => {
    pollReply = () => ({
      status: 200,
      json: { name: 'x', done: true, error: { code: 14, message: 'The service is unavailable.' } },
    });
    const { row } = await generate({});
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 3,
      errorMessage: 'Veo could not make this video: The service is unavailable.',
    });
    expect(starts()).toHaveLength(3);
  });

  it('resumes the saved task after a transient failure instead of paying Veo twice', async () => {
    // The first attempt's polls all answer 503 (retried, then given up); the next attempt finds it done.
    pollReply = (_op, poll) =>
      poll <= 4 ? { status: 503, json: { error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } } } : video;
    const { row } = await generate({});
    expect(row).toMatchObject({ status: 'completed', attempts: 2, providerTaskId: `models/${MODEL}/operations/op-1` });
    expect(starts()).toHaveLength(1);
  });
});
