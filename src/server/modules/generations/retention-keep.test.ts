import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { followJob, startGeneration } from '../../../../tests/support/pipeline';
import type { GenerationRecord } from '../../../shared/generations';
import { generations, uploads, users } from '../../db/schema';
import { sweepExpired } from '../../jobs/retention-sweeper';
import { startWorker, type Worker } from '../../jobs/worker';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The operator's settings of issue 32: videos kept one hour; subscribers may keep them longer.
// The service context's clock is moved past expiries instead of waiting for them.
let clock: Date | null = null;
let t: TestApp;
let worker: Worker;
beforeAll(async () => {
  t = await createTestApp({ VIDEO_RETENTION_HOURS: '1', KEEP_VIDEOS_FOR: 'subscribers' }, undefined, {
    now: () => clock ?? new Date(),
  });
  worker = startWorker(t.ctx, {
    config: {
      concurrency: 1,
      leaseSeconds: 5,
      pollMs: 50,
      retryDelaySeconds: 0,
      shutdownGraceSeconds: 1,
      jobTimeoutSeconds: 600,
    },
    log: t.app.log,
  });
}, 180_000);
afterAll(async () => {
  await worker.stop(1000);
  await t.close();
});

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, { creditsHundredths: 1000, ...overrides });
  return { user, cookie: await signIn(t.app, user) };
}

/** A finished video of the user's, with its file in storage, that expires at `expiresAt`. */
async function finishedVideo(userId: string, expiresAt: Date) {
  const outputKey = `outputs/${userId}/${crypto.randomUUID()}.mp4`;
  await t.ctx.storage.put(outputKey, Readable.from([Buffer.from('not really a video')]), 'video/mp4');
  const [row] = await t.db
    .insert(generations)
    .values({
      userId,
      prompt: 'A lighthouse at dusk',
      model: 'local',
      requestedDuration: 4,
      hasAudio: false,
      status: 'completed',
      progress: 100,
      outputKey,
      completedAt: new Date(expiresAt.getTime() - HOUR),
      expiresAt,
    })
    .returning();
  if (!row) throw new Error('no row');
  return row;
}

const keep = (cookie: string, id: string, value: boolean) =>
  injectJson(t.app, 'POST', `/api/video-generation/${id}/keep`, { cookie, body: { keep: value } });
const listOf = async (cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
const stored = async (key: string) => (await t.ctx.storage.stat(key)) !== null;

describe('VIDEO_RETENTION_HOURS=1', () => {
  it('gives a finished video an expiry one hour after it completed, and the sweep deletes its file then, not before', async () => {
    const { cookie } = await signedIn();
    const created = await startGeneration(t, cookie, { duration: 4, isEconomy: true, hasAudio: false });
    const { row } = await followJob(t, created.id, 90_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    if (!row?.completedAt || !row.expiresAt || !row.outputKey) throw new Error('no output');
    expect(row.expiresAt.getTime() - row.completedAt.getTime()).toBe(HOUR);
    const [record] = await listOf(cookie);
    expect(record).toMatchObject({ id: row.id, kept: false, expiresAt: row.expiresAt.toISOString() });
    expect(record?.outputVideoUrl).not.toBeNull();

    try {
      clock = new Date(row.expiresAt.getTime() - 60_000);
      expect((await sweepExpired(t.ctx)).videos).toBe(0);
      expect(await stored(row.outputKey)).toBe(true);

      clock = new Date(row.expiresAt.getTime() + 1000);
      expect((await sweepExpired(t.ctx)).videos).toBe(1);
      expect(await stored(row.outputKey)).toBe(false);
      expect(await listOf(cookie)).toMatchObject([{ id: row.id, status: 'completed', outputVideoUrl: null }]);
    } finally {
      clock = null;
    }
  });

  it('keeps an upload for the same hour', async () => {
    const { user, cookie } = await signedIn();
    const response = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
    expect(response.statusCode, response.body).toBe(200);
    const [upload] = await t.db.select().from(uploads).where(eq(uploads.userId, user.id));
    expect((upload?.expiresAt.getTime() ?? 0) - (upload?.createdAt.getTime() ?? 0)).toBe(HOUR);
  });
});

describe('keeping a video (KEEP_VIDEOS_FOR=subscribers)', () => {
  it('never deletes a kept video, nor its record, and lets it expire an hour after it is no longer kept', async () => {
    const { user, cookie } = await signedIn({ subscriptionStatus: 'active' });
    const now = Date.now();
    const video = await finishedVideo(user.id, new Date(now + 10 * 60_000));

    const kept = await keep(cookie, video.id, true);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ id: video.id, kept: true, expiresAt: null });

    try {
      // Past its hour, and past GENERATION_RECORD_RETENTION_DAYS: still there, still playable.
      clock = new Date(now + 31 * DAY);
      await sweepExpired(t.ctx);
      expect(await stored(video.outputKey ?? '')).toBe(true);
      const [record] = await listOf(cookie);
      expect(record).toMatchObject({ id: video.id, kept: true, expiresAt: null });
      const play = await injectJson(t.app, 'GET', record?.outputVideoUrl ?? '/none', { cookie });
      expect(play.statusCode).toBe(200);

      const released = await keep(cookie, video.id, false);
      expect(released.statusCode, released.body).toBe(200);
      expect(released.json()).toMatchObject({
        kept: false,
        expiresAt: new Date(clock.getTime() + HOUR).toISOString(),
      });
      clock = new Date(clock.getTime() + HOUR - 60_000);
      await sweepExpired(t.ctx);
      expect(await stored(video.outputKey ?? '')).toBe(true);
      clock = new Date(clock.getTime() + 2 * 60_000);
      await sweepExpired(t.ctx);
      expect(await stored(video.outputKey ?? '')).toBe(false);
    } finally {
      clock = null;
    }
  });

  it('refuses a user KEEP_VIDEOS_FOR does not name with a sentence, and changes nothing', async () => {
    const { user, cookie } = await signedIn({ subscriptionStatus: 'inactive' });
    const expiresAt = new Date(Date.now() + 30 * 60_000);
    const video = await finishedVideo(user.id, expiresAt);
    const response = await keep(cookie, video.id, true);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'keep_not_allowed',
      message:
        'Keeping videos is not available on your account. Videos are deleted 1 hour after they are made, so download the ones you want.',
    });
    const [row] = await t.db.select().from(generations).where(eq(generations.id, video.id));
    expect(row).toMatchObject({ kept: false, expiresAt });
  });

  it("answers 404 for another user's video, an unknown id and a malformed one, and 400 for a body that is not a boolean", async () => {
    const owner = await signedIn({ subscriptionStatus: 'active' });
    const other = await signedIn({ subscriptionStatus: 'active' });
    const video = await finishedVideo(owner.user.id, new Date(Date.now() + 30 * 60_000));
    for (const id of [video.id, crypto.randomUUID(), 'not-an-id']) {
      const response = await keep(other.cookie, id, true);
      expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([404, 'generation_not_found']);
    }
    const bad = await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/keep`, {
      cookie: owner.cookie,
      body: { keep: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const [row] = await t.db.select().from(generations).where(eq(generations.id, video.id));
    expect(row?.kept).toBe(false);
  });

  it('takes a token with the videos:write scope, and refuses one without it', async () => {
    const { user, cookie } = await signedIn({ subscriptionStatus: 'active' });
    const video = await finishedVideo(user.id, new Date(Date.now() + 30 * 60_000));
    const token = async (scopes: string[]) =>
      (await injectJson(t.app, 'POST', '/api/account/tokens', { cookie, body: { name: 'keeper', scopes } })).json<{
        token: string;
      }>().token;
    const withToken = async (scopes: string[]) =>
      injectJson(t.app, 'POST', `/api/video-generation/${video.id}/keep`, {
        headers: { authorization: `Bearer ${await token(scopes)}` },
        body: { keep: true },
      });
    const read = await withToken(['videos:read']);
    expect([read.statusCode, read.json<{ code: string }>().code]).toEqual([403, 'missing_scope']);
    const write = await withToken(['videos:write']);
    expect(write.statusCode, write.body).toBe(200);
    expect(write.json()).toMatchObject({ kept: true });
  });

  it('refuses to keep a video already expired, or not finished', async () => {
    const { user, cookie } = await signedIn({ subscriptionStatus: 'trial' });
    const expired = await finishedVideo(user.id, new Date(Date.now() - 1000));
    const response = await keep(cookie, expired.id, true);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'video_expired',
      message: 'This video has expired (videos are kept for 1 hour), so it can no longer be kept.',
    });
    await t.db.update(generations).set({ status: 'processing' }).where(eq(generations.id, expired.id));
    expect((await keep(cookie, expired.id, true)).statusCode).toBe(409);
  });

  it('lets a kept video expire again, an hour after the sweep, once its owner is no longer allowed', async () => {
    const { user, cookie } = await signedIn({ subscriptionStatus: 'active' });
    const video = await finishedVideo(user.id, new Date(Date.now() + 30 * 60_000));
    expect((await keep(cookie, video.id, true)).statusCode).toBe(200);
    await t.db.update(users).set({ subscriptionStatus: 'inactive' }).where(eq(users.id, user.id));

    try {
      clock = new Date(Date.now() + 2 * HOUR);
      const swept = await sweepExpired(t.ctx);
      expect(swept.releasedKeeps).toBe(1);
      expect(await stored(video.outputKey ?? '')).toBe(true);
      const [row] = await t.db.select().from(generations).where(eq(generations.id, video.id));
      expect(row).toMatchObject({ kept: false, expiresAt: new Date(clock.getTime() + HOUR) });
      // Their own video: stopping to keep it needs no permission, and is answered as it is.
      expect((await keep(cookie, video.id, false)).json()).toMatchObject({ kept: false });
    } finally {
      clock = null;
    }
  });
});
