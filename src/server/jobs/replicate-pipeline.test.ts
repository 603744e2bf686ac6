import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { independentlyRead } from '../../../tests/support/credentials';
import { uploadFile } from '../../../tests/support/factories';
import { type FakeReplicate, REPLICATE_POLICY_ERROR, startFakeReplicate } from '../../../tests/support/fake-replicate';
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

// Replicate's predictions API through the whole pipeline, with its signed webhooks reaching our
// server on a real socket (PUBLIC_URL), against a local stand-in speaking its wire format.
const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/chelsea.png'));

let replicate: FakeReplicate;
let t: TestApp;
let stop: () => Promise<void>;
let publicUrl: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  replicate = await startFakeReplicate((await makeMediaFixtures()).video);
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  ({ t, stop } = await startPipeline({
    REPLICATE_API_TOKEN: replicate.token,
    REPLICATE_BASE_URL: replicate.baseUrl,
    PUBLIC_URL: publicUrl,
  }));
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await stop();
  await replicate.close();
});
beforeEach(() => {
  replicate.outcome = 'video';
  replicate.rateLimitNext = 0;
});

describe('Replicate through the pipeline', () => {
  it('creates one prediction with its webhook, follows its progress, retries a 429 and stores a playable MP4', async () => {
    const { cookie } = await payingUser(t);
    const imageFile = await uploadFile(t.app, cookie, PNG);
    replicate.rateLimitNext = 1;
    const record = await startGeneration(t, cookie, {
      model: 'replicate-kling-2.1',
      prompt: 'The cat jumps',
      imageFile,
      duration: 10,
      jsonPrompt: '{"aspectRatio":"9:16"}',
    });
    const { row, seen } = await followJob(t, record.id);
    expect(row).toMatchObject({ status: 'completed', attempts: 1 });
    expect(replicate.rateLimited).toBe(1);
    expect(replicate.predictions).toHaveLength(1);
    const prediction = replicate.predictions[0];
    expect(prediction?.model).toBe('kwaivgi/kling-v2.1-master');
    expect(prediction?.input).toMatchObject({ prompt: 'The cat jumps', duration: 10, aspect_ratio: '9:16' });
    expect(String(prediction?.input.start_image)).toMatch(new RegExp(`^${publicUrl}/api/media/`));
    expect(prediction?.webhook).toBe(`${publicUrl}/api/webhooks/replicate`);
    expect(row?.providerTaskId).toBe(prediction?.id);

    expect(new Set(seen.map((s) => s.progress)).size).toBeGreaterThanOrEqual(3);
    expect(seen.some((s) => s.stage === 'Starting at Replicate')).toBe(true);
    expect(
      seen.some(
        (s) => s.progress > 10 && s.progress < 90 && s.stage === 'Generating with Kling 2.1 Master (Replicate)',
      ),
    ).toBe(true);

    // Replicate's signed webhook reached our server and was accepted.
    await waitUntil(() => replicate.deliveries.some((d) => d.id === prediction?.id));
    expect(replicate.deliveries.find((d) => d.id === prediction?.id)).toMatchObject({
      status: 'succeeded',
      answer: 200,
    });

    const [listed] = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    const output = (await t.app.inject({ method: 'GET', url: listed?.outputVideoUrl ?? '' })).rawPayload;
    expect((await probeBytes(output)).video).not.toBeNull();
    // Signed as Replicate's AI render, and valid to a reader independent of the signer.
    expect(await independentlyRead(output)).toMatchObject({ valid: true, sourceType: 'trainedAlgorithmicMedia' });
  });

  it('refuses webhooks that are not signed with the account secret, or are stale', async () => {
    const body = JSON.stringify({ id: 'abc', status: 'succeeded' });
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/replicate',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    expect((await post(replicate.sign(body))).statusCode).toBe(200);
    const forged = { ...replicate.sign(body), 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    expect((await post(forged)).statusCode).toBe(401);
    expect((await post(replicate.sign(body, 'msg_1', Math.floor(Date.now() / 1000) - 3600))).statusCode).toBe(401);
    expect((await post({})).statusCode).toBe(401);
    const tampered = replicate.sign(body);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/replicate',
      headers: { 'content-type': 'application/json', ...tampered },
      payload: body.replace('abc', 'abd'),
    });
    expect(other.statusCode).toBe(401);
  });

  it('wakes the job waiting on a prediction as soon as its signed webhook arrives', async () => {
    const hooks = t.ctx.webhooks.replicate;
    if (!hooks) throw new Error('no Replicate webhooks');
    const started = Date.now();
    const waiting = hooks.wait('pred-1', 10_000, new AbortController().signal);
    const body = JSON.stringify({ id: 'pred-1', status: 'succeeded' });
    const answer = await fetch(`${publicUrl}/api/webhooks/replicate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...replicate.sign(body) },
      body,
    });
    expect(answer.status).toBe(200);
    await waiting;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('asks Veo 3 for no sound and its duration explicitly when sound is off (its defaults are sound on, 8 s)', async () => {
    const { cookie } = await payingUser(t);
    const { row } = await followJob(
      t,
      (await startGeneration(t, cookie, { model: 'replicate-veo3', hasAudio: false, duration: 8 })).id,
    );
    expect(row?.status).toBe('completed');
    const prediction = replicate.predictions.at(-1);
    expect(prediction?.model).toBe('google/veo-3');
    expect(prediction?.input).toMatchObject({ generate_audio: false, duration: 8 });
    // What Replicate runs and bills: no sound track.
    expect(prediction?.effectiveInput.generate_audio).toBe(false);
  });

  it('fails a safety refusal at once with Replicate’s reason', async () => {
    replicate.outcome = 'policy';
    const { cookie } = await payingUser(t);
    const { row } = await followJob(t, (await startGeneration(t, cookie, { model: 'replicate-veo3' })).id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorMessage: `Replicate refused this video: ${REPLICATE_POLICY_ERROR}`,
    });
  });

  it('fails a run error with its reason', async () => {
    replicate.outcome = 'error';
    const { cookie } = await payingUser(t);
    const { row } = await followJob(t, (await startGeneration(t, cookie, { model: 'replicate-veo3' })).id);
    expect(row).toMatchObject({
      status: 'failed',
      errorMessage: 'Replicate could not make this video: CUDA out of memory.',
    });
  });

  it('cancels the prediction at Replicate when the job is deleted', async () => {
    replicate.outcome = 'never';
    const { cookie } = await payingUser(t);
    const record = await startGeneration(t, cookie, { model: 'replicate-veo3' });
    await waitUntil(async () => Boolean((await rowOf(t, record.id))?.providerTaskId));
    const id = replicate.predictions.at(-1)?.id ?? '';
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${record.id}`, { cookie })).statusCode).toBe(200);
    await waitUntil(() => replicate.cancelled.includes(id));
  });
});

describe('Replicate’s signing secret, rotated', () => {
  let app: TestApp;
  let own: FakeReplicate;
  beforeAll(async () => {
    // An app of its own: the secret's one-a-minute refetch must not have been spent by another test.
    own = await startFakeReplicate(Buffer.from('unused'));
    app = await createTestApp({ REPLICATE_API_TOKEN: own.token, REPLICATE_BASE_URL: own.baseUrl });
  });
  afterAll(async () => {
    await app.close();
    await own.close();
  });

  const deliver = (headers: Record<string, string>, body: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/webhooks/replicate',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  it('asks for the secret again when a signature does not verify, at most once a minute', async () => {
    const body = JSON.stringify({ id: 'pred-rotated', status: 'succeeded' });
    expect((await deliver(own.sign(body), body)).statusCode).toBe(200);
    expect(own.secretFetches).toBe(1);

    // Replicate rotates the secret: the next delivery, signed with the new one, is accepted after one fetch.
    own.rotateSecret();
    expect((await deliver(own.sign(body), body)).statusCode).toBe(200);
    expect(own.secretFetches).toBe(2);
    expect((await deliver(own.sign(body), body)).statusCode).toBe(200);
    expect(own.secretFetches).toBe(2);

    // A forged signature is refused without asking again: the last fetch was less than a minute ago.
    const forged = { ...own.sign(body), 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    expect((await deliver(forged, body)).statusCode).toBe(401);
    // Nor does a second rotation within that minute make us ask: its deliveries wait for the next minute.
    own.rotateSecret();
    expect((await deliver(own.sign(body), body)).statusCode).toBe(401);
    expect(own.secretFetches).toBe(2);
  });
});
