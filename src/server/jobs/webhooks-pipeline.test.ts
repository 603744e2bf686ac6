import { Webhook } from 'standardwebhooks';
import { startTestWorker } from '../../../tests/support/pipeline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signedInAdmin, signIn } from '../../../tests/support/factories';
import { contractOf } from '../../../tests/support/openapi-contract';
import { startWebhookReceiver, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import type { GenerationRecord } from '../../shared/generations';
import { WEBHOOK_EVENT_TYPES, type CreatedWebhook } from '../../shared/webhooks';
import { OPENAPI_URL } from '../http/openapi';
import { failForGood } from '../modules/generations/lifecycle.service';
import { deliverDueWebhook } from '../modules/outbound-webhooks/webhooks.service';
import * as queue from './queue.repository';
import type { Worker } from './worker';

// Webhooks from real generations: the local engine renders with FFmpeg, the worker delivers to a
// receiver on 127.0.0.1 (allowed through WEBHOOK_ALLOWED_PRIVATE_HOSTS), and every request is verified
// with the `standardwebhooks` package as a receiver would; every request also keeps to the OpenAPI
// document's `webhooks` entry for its event.

let t: TestApp;
let receiver: WebhookReceiver;
let worker: Worker | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: receiver.hostPort });
}, 240_000);
afterAll(async () => {
  await worker?.stop(1000);
  await t.close();
  await receiver.close();
});

async function userWithEndpoint(creditsHundredths: number, path: string, events: string[]) {
  const user = await createUser(t.db, { creditsHundredths });
  const cookie = await signIn(t.app, user);
  const response = await injectJson(t.app, 'POST', '/api/account/webhooks', {
    cookie,
    body: { url: receiver.url(path), events },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { cookie, endpoint: response.json<CreatedWebhook>() };
}

function verified(secret: string, request: { headers: Record<string, unknown>; body: string }) {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

async function listed(cookie: string, id: string): Promise<GenerationRecord | undefined> {
  const records = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
  return records.find((r) => r.id === id);
}

it('sends video.failed with the failed record when a job fails for good', async () => {
  const { cookie, endpoint } = await userWithEndpoint(500, '/failed', ['video.failed']);
  const created = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A storm over the sea', duration: 4 },
  });
  expect(created.statusCode, created.body).toBe(201);
  // No worker runs yet: this test claims the job as one would, and fails it.
  const claimed = await queue.claimNext(t.db, 'test-worker', 60);
  expect(claimed?.id).toBe(created.json<GenerationRecord>().id);
  await failForGood(t.ctx, { id: claimed?.id ?? '', workerId: 'test-worker' }, 'The engine stopped.', 'system');

  const arrived = receiver.next((r) => r.path === '/failed');
  expect(await deliverDueWebhook(t.ctx)).toBe(true);
  const event = verified(endpoint.secret, await arrived);
  expect(event.type).toBe('video.failed');
  expect(event.data).toEqual(await listed(cookie, claimed?.id ?? ''));
  expect(event.data).toMatchObject({ status: 'failed', errorMessage: 'The engine stopped.' });
});

it('sends credits.low, progress and video.completed with the record as the API returns it, after a local-engine video', async () => {
  worker = startTestWorker(t);
  const events = ['video.completed', 'video.progress', 'credits.low'];
  const { cookie, endpoint } = await userWithEndpoint(150, '/all', events);
  // Someone else's endpoint hears nothing of it.
  const bystander = await userWithEndpoint(1000, '/bystander', ['video.completed', 'video.progress']);

  const low = receiver.next((r) => r.path === '/all' && r.body.includes('"credits.low"'));
  const progress = receiver.next((r) => r.path === '/all' && r.body.includes('"video.progress"'));
  const completed = receiver.next((r) => r.path === '/all' && r.body.includes('"video.completed"'), 120_000);
  const started = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A blue and gold abstract sky', hasAudio: false, duration: 4 },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<GenerationRecord>().id;

  expect(verified(endpoint.secret, await low)).toMatchObject({
    type: 'credits.low',
    data: { credits: 0.5, thresholdCredits: 1 },
  });
  const progressEvent = verified(endpoint.secret, await progress);
  expect(progressEvent.data).toMatchObject({ id, status: 'processing' });

  const done = verified(endpoint.secret, await completed);
  expect(done.type).toBe('video.completed');
  expect(Date.parse(done.timestamp)).not.toBeNaN();
  const record = await listed(cookie, id);
  expect(record?.status).toBe('completed');
  expect(done.data).toEqual(record);
  expect(done.data.outputVideoUrl).toMatch(/^\/api\/media\//);
  // The link in the body plays the video.
  const video = await t.app.inject({ method: 'GET', url: String(done.data.outputVideoUrl) });
  expect(video.statusCode).toBe(200);
  expect(video.headers['content-type']).toBe('video/mp4');

  expect(receiver.received.filter((r) => r.path === '/bystander')).toEqual([]);
  void bystander;
}, 180_000);

it('sends video.taken_down to the owner when an administrator takes a reported video down', async () => {
  worker ??= startTestWorker(t);
  const { cookie, endpoint } = await userWithEndpoint(1000, '/takedown', ['video.taken_down']);
  const started = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A lighthouse at dusk', model: 'local', hasAudio: false, duration: 2, resolution: '480p' },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<GenerationRecord>().id;
  const finished = receiver.next((r) => r.path === '/takedown', 120_000);
  // Nothing but the takedown is subscribed: wait for the video by the list.
  await expect.poll(async () => (await listed(cookie, id))?.status, { timeout: 120_000 }).toBe('completed');
  const reported = await injectJson(t.app, 'POST', '/api/reports', {
    body: { video: id, reason: 'likeness', contact: 'me@example.com', description: 'This shows me.', statement: true },
    remoteAddress: '198.51.100.40',
  });
  expect(reported.statusCode, reported.body).toBe(201);
  const { cookie: adminCookie } = await signedInAdmin(t.app, t.db, 'webhooks');
  const taken = await injectJson(
    t.app,
    'POST',
    `/api/admin/safety/reports/${reported.json<{ id: string }>().id}/take-down`,
    {
      cookie: adminCookie,
      body: { note: 'A real person, without consent.' },
    },
  );
  expect(taken.statusCode, taken.body).toBe(200);

  const event = verified(endpoint.secret, await finished);
  expect(event.type).toBe('video.taken_down');
  expect(event.data).toEqual({
    id,
    removed: [id],
    reason: 'likeness',
    note: 'A real person, without consent.',
    takenDownAt: expect.any(String),
  });
  expect(Date.parse(String(event.data.takenDownAt))).not.toBeNaN();
}, 180_000);

it("sends film.completed, and video.completed, when a film of the user's videos is ready", async () => {
  worker ??= startTestWorker(t);
  const { cookie, endpoint } = await userWithEndpoint(1000, '/film', ['film.completed', 'video.completed']);
  const shot = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'Waves on a shingle beach', model: 'local', hasAudio: false, duration: 2, resolution: '480p' },
  });
  expect(shot.statusCode, shot.body).toBe(201);
  const shotId = shot.json<GenerationRecord>().id;
  await receiver.next((r) => r.path === '/film' && r.body.includes(shotId), 120_000);
  const filmDone = receiver.next((r) => r.path === '/film' && r.body.includes('"film.completed"'), 120_000);
  const made = await injectJson(t.app, 'POST', '/api/films', {
    cookie,
    body: { parts: [{ card: { text: 'The beach', seconds: 1 } }, { video: shotId }], transitions: ['crossfade'] },
  });
  expect(made.statusCode, made.body).toBe(201);
  const filmId = made.json<GenerationRecord>().id;

  const event = verified(endpoint.secret, await filmDone);
  expect(event.type).toBe('film.completed');
  expect(event.data).toEqual(await listed(cookie, filmId));
  expect(event.data).toMatchObject({ id: filmId, model: 'film', status: 'completed', creditsUsed: 0 });
  // The same film as a video, to the same endpoint.
  const asVideo = await receiver.next(
    (r) => r.path === '/film' && r.body.includes('"video.completed"') && r.body.includes(filmId),
  );
  expect(verified(endpoint.secret, asVideo).data).toMatchObject({ id: filmId });
}, 180_000);

it('sent every event as the OpenAPI document describes it', async () => {
  const document = (await t.app.inject({ method: 'GET', url: OPENAPI_URL })).json();
  const contract = contractOf(document);
  const sent = receiver.received.filter((request) => request.path !== '/bystander');
  expect(sent.flatMap((request) => contract.checkWebhook(request))).toEqual([]);
  // Every event an endpoint can subscribe to was seen above.
  const types = new Set(sent.map((request) => (JSON.parse(request.body) as { type: string }).type));
  expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
});
