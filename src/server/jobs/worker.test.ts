import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../tests/support/factories';
import { makeMediaFixtures, probeBytes } from '../../../tests/support/media';
import type { GenerationRecord } from '../../shared/generations';
import { creditLedger, generations, users } from '../db/schema';
import * as queue from './queue.repository';
import { startWorker, type Worker } from './worker';

const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/astronaut.png'));

let t: TestApp;
let worker: Worker;
let media: { video: Buffer; audio: Buffer };
const workerConfig = {
  concurrency: 2,
  leaseSeconds: 3,
  pollMs: 50,
  retryDelaySeconds: 0,
  shutdownGraceSeconds: 1,
  jobTimeoutSeconds: 600,
};

function startTestWorker(): Worker {
  return startWorker(t.ctx, { config: workerConfig, log: t.app.log });
}

beforeAll(async () => {
  t = await createTestApp();
  media = await makeMediaFixtures();
  worker = startTestWorker();
});
afterAll(async () => {
  await worker.stop(1000);
  await t.close();
});

async function waitFor(cookie: string, id: string, done: (r: GenerationRecord) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const records = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
    const record = records.find((r) => r.id === id);
    if (record && done(record)) return record;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const finished = (r: GenerationRecord) => r.status === 'completed' || r.status === 'failed';

async function download(url: string | null) {
  if (!url) throw new Error('no output URL');
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('video/mp4');
  return response.rawPayload;
}

describe('the local engine through the whole pipeline', () => {
  it('signs up, uploads an image, generates with audio and serves a 10 s 720p H.264 + AAC MP4', async () => {
    const register = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: 'maker@example.com', password: 'correct horse battery', firstName: 'Maya' },
    });
    expect(register.statusCode).toBeLessThan(300);
    const cookie = sessionCookieFrom(register);
    // The first account is the unlimited administrator; the pipeline is the same for everyone.
    const imageFile = await uploadFile(t.app, cookie, ASTRONAUT);
    const started = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      // A real person: the uploader confirms consent (issue 43).
      body: {
        prompt: 'Slowly zoom in on the astronaut, epic music',
        imageFile,
        hasAudio: true,
        duration: 10,
        consentToLikeness: true,
      },
    });
    expect(started.statusCode).toBe(201);
    const record = await waitFor(cookie, started.json<GenerationRecord>().id, finished);
    expect(record).toMatchObject({ status: 'completed', progress: 100, hasAudio: true });
    expect(record.duration).toBeCloseTo(10, 0);
    expect(new Date(record.expiresAt ?? 0).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const info = await probeBytes(await download(record.outputVideoUrl));
    expect(info.video).toMatchObject({ codec: 'h264', width: 1280, height: 720, pixelFormat: 'yuv420p' });
    expect(Math.abs(info.durationSeconds - 10)).toBeLessThanOrEqual(0.2);
    expect(info.audio?.codec).toBe('aac');
    const poster = await t.app.inject({ method: 'GET', url: record.posterUrl ?? '' });
    expect(poster.statusCode).toBe(200);
    expect(poster.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('renders no audio stream with audio off, at 854x480 in economy mode', async () => {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    const started = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A blue and gold abstract sky', hasAudio: false, isEconomy: true, duration: 4 },
    });
    const record = await waitFor(cookie, started.json<GenerationRecord>().id, finished);
    expect(record.status).toBe('completed');
    const info = await probeBytes(await download(record.outputVideoUrl));
    expect(info.audio).toBeNull();
    expect(info.video).toMatchObject({ width: 854, height: 480 });
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThanOrEqual(0.2);
  });

  it('loops a video input to length and muxes an uploaded audio file', async () => {
    const user = await createUser(t.db, { creditsHundredths: 300 });
    const cookie = await signIn(t.app, user);
    const videoFile = await uploadFile(t.app, cookie, media.video);
    const audioFile = await uploadFile(t.app, cookie, media.audio);
    const started = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'Black and white, like an old film', videoFile, audioFile, hasAudio: true, duration: 7 },
    });
    expect(started.statusCode).toBe(201);
    const record = await waitFor(cookie, started.json<GenerationRecord>().id, finished);
    expect(record.status).toBe('completed');
    const info = await probeBytes(await download(record.outputVideoUrl));
    expect(Math.abs(info.durationSeconds - 7)).toBeLessThanOrEqual(0.2);
    expect(info.audio?.codec).toBe('aac');
    expect(info.video).toMatchObject({ width: 1280, height: 720 });
  });
});

describe('cancelling and leases', () => {
  it('stops a running render within a few seconds when its video is deleted, and stores nothing', async () => {
    const user = await createUser(t.db, { subscriptionStatus: 'premium_unlimited' });
    const cookie = await signIn(t.app, user);
    const started = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'A long red and purple dream', duration: 20 },
    });
    const id = started.json<GenerationRecord>().id;
    await waitFor(cookie, id, (r) => r.status === 'processing' && r.progress >= 10);
    const removed = await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie });
    expect(removed.statusCode).toBe(200);
    expect(worker.busy()).toContain(id);
    // The worker notices at its next progress write or heartbeat, kills FFmpeg and frees its slot.
    const stoppedAt = Date.now();
    while (worker.busy().includes(id) && Date.now() - stoppedAt < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(worker.busy()).not.toContain(id);
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    const outputs = path.join(t.dataDir, 'objects', 'outputs', user.id);
    expect(existsSync(outputs) ? readdirSync(outputs) : []).toEqual([]);
    expect(await t.db.select().from(generations).where(eq(generations.id, id))).toHaveLength(0);
  });

  it('claims again a job whose worker stopped renewing its lease, and charges it once', async () => {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    await worker.stop(5000);
    const id = (
      await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A green forest', duration: 3 },
      })
    ).json<GenerationRecord>().id;
    // A worker that claims the job and then vanishes (no heartbeat, no release).
    const ghost = await queue.claimNext(t.db, 'ghost-worker', 1);
    expect(ghost?.id).toBe(id);
    expect(await queue.claimNext(t.db, 'second-worker', 1)).toBeNull();
    worker = startTestWorker();
    const record = await waitFor(cookie, id, finished);
    expect(record.status).toBe('completed');
    const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
    expect(row?.attempts).toBe(2);
    expect(row?.leaseOwner).toBeNull();
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(1);
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths).toBe(0);
  });

  it('fails, without a refund, a job whose third worker also died', async () => {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    await worker.stop(5000);
    const id = (
      await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'An unlucky job', duration: 3 },
      })
    ).json<GenerationRecord>().id;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await queue.claimNext(t.db, `ghost-${attempt}`, 1))?.id).toBe(id);
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
    worker = startTestWorker();
    const record = await waitFor(cookie, id, finished);
    expect(record).toMatchObject({
      status: 'failed',
      errorMessage: 'The video could not be finished after 3 attempts. Please try again.',
    });
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths).toBe(0);
  });
});
