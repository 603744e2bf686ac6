import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson } from '../../../../tests/support/app';
import { binaries } from '../../../../tests/support/media';
import { followJob, payingUser, rowOf, startPipeline } from '../../../../tests/support/pipeline';
import type { CreatedGenerationRecord, GenerationRecord } from '../../../shared/generations';
import { creditLedger, generations, uploads, users } from '../../db/schema';
import { probeMedia as probeFile } from '../../media/ffmpeg';
import { runMediaProcess } from '../../media/processes';
import type { TestApp } from '../../../../tests/support/app';

// Extend (POST /api/video-generation/:id/extend) and variations (`variations` on a generation request),
// through the whole pipeline with the local engine and its worker.
let t: TestApp;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ t, stop } = await startPipeline({}));
}, 180_000);
afterAll(async () => {
  await stop();
});

// At 480p, the local engine's smallest videos: what is tested is the joining, grouping and charging.
const SHAPE = { model: 'local', resolution: '480p' };

const generate = (cookie: string, body: object) =>
  injectJson(t.app, 'POST', '/api/video-generation', { cookie, body: { ...SHAPE, ...body } });

/** What POST /api/credits/estimate says one video costs, in hundredths. */
async function estimateHundredths(cookie: string, body: object): Promise<number> {
  const response = await injectJson(t.app, 'POST', '/api/credits/estimate', {
    cookie,
    body: { ...SHAPE, ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  return Math.round(response.json<{ data: { totalCost: number } }>().data.totalCost * 100);
}

const balanceOf = async (userId: string) =>
  (await t.db.select().from(users).where(eq(users.id, userId)))[0]?.creditsHundredths ?? -1;

async function videoFile(record: GenerationRecord): Promise<string> {
  const url = record.outputVideoUrl;
  if (!url) throw new Error('no video');
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'reelsmith-extended-')), 'video.mp4');
  writeFileSync(file, response.rawPayload);
  return file;
}

/** Decodes every frame and sample; answers what FFmpeg complained about (nothing for a sound file). */
async function decodeErrors(file: string): Promise<string> {
  const { code, stderr } = await runMediaProcess(binaries.ffmpeg, ['-v', 'error', '-i', file, '-f', 'null', '-'], {
    timeoutMs: 120_000,
  });
  return code === 0 ? stderr.trim() : `exit ${code}: ${stderr}`;
}

async function completed(cookie: string, id: string): Promise<GenerationRecord> {
  const { row } = await followJob(t, id, 180_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  const list = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
  const record = list.find((r) => r.id === id);
  if (!record) throw new Error('not listed');
  return record;
}

describe('Extend', () => {
  it('joins the continuation to the original into one video, the sum less the crossfade, charged as the continuation', async () => {
    const { user, cookie } = await payingUser(t, 10_000);
    const first = await generate(cookie, {
      description: 'A red kite over the hills, wind sound',
      duration: 3,
      hasAudio: true,
    });
    expect(first.statusCode, first.body).toBe(201);
    const original = await completed(cookie, first.json<GenerationRecord>().id);
    const originalFile = await videoFile(original);
    const before = await probeMedia(originalFile);

    const price = await estimateHundredths(cookie, { duration: 2, hasAudio: true });
    const balance = await balanceOf(user.id);
    const response = await injectJson(t.app, 'POST', `/api/video-generation/${original.id}/extend`, {
      cookie,
      body: { prompt: 'The kite climbs into the clouds', duration: 2, crossfade: 0.5 },
    });
    expect(response.statusCode, response.body).toBe(201);
    const extension = response.json<CreatedGenerationRecord>();
    expect(extension).toMatchObject({ parentId: original.id, groupId: null, status: 'pending', hasAudio: true });
    expect(extension.prompt).toBe('The kite climbs into the clouds');
    expect(Math.round(extension.creditsUsed * 100)).toBe(price);
    expect(balance - (await balanceOf(user.id))).toBe(price);
    const charges = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.id), eq(creditLedger.reference, `generation:${extension.id}`)));
    expect(charges.map((row) => row.deltaHundredths)).toEqual([-price]);

    const done = await completed(cookie, extension.id);
    expect(done.parentId).toBe(original.id);
    const file = await videoFile(done);
    const after = await probeMedia(file);
    expect(after.durationSeconds).toBeCloseTo(before.durationSeconds + 2 - 0.5, 1);
    expect(after.video).toMatchObject({
      codec: 'h264',
      width: before.video?.width,
      height: before.video?.height,
      frameRate: before.video?.frameRate,
    });
    expect(after.audio?.codec).toBe('aac');
    expect(await decodeErrors(file)).toBe('');
    // The copy of the original the worker joined to is gone once the video is stored.
    expect((await rowOf(t, extension.id))?.extension?.baseKey).toBeTruthy();
    expect(await t.ctx.storage.stat((await rowOf(t, extension.id))?.extension?.baseKey ?? '')).toBeNull();

    // Grown again, without a crossfade: the joined video plus the new part.
    const again = await injectJson(t.app, 'POST', `/api/video-generation/${done.id}/extend`, {
      cookie,
      body: { duration: 2 },
    });
    expect(again.statusCode, again.body).toBe(201);
    const longer = await completed(cookie, again.json<GenerationRecord>().id);
    expect(longer.prompt).toBe(done.prompt);
    const longerInfo = await probeMedia(await videoFile(longer));
    expect(longerInfo.durationSeconds).toBeCloseTo(after.durationSeconds + 2, 1);
  }, 400_000);

  it("refuses someone else's, an unfinished, a failed and an expired video with a sentence, leaving nothing behind", async () => {
    const owner = await payingUser(t, 10_000);
    const other = await payingUser(t, 10_000);
    const created = await generate(owner.cookie, { description: 'A lighthouse at night', duration: 2 });
    const id = created.json<GenerationRecord>().id;
    const extend = (cookie: string, target = id) =>
      injectJson(t.app, 'POST', `/api/video-generation/${target}/extend`, { cookie, body: {} });
    const uploadsOf = async (userId: string) =>
      (await t.db.select().from(uploads).where(eq(uploads.userId, userId))).length;

    const unfinished = await extend(owner.cookie);
    expect([unfinished.statusCode, unfinished.json<{ message: string }>().message]).toEqual([
      409,
      'This video is not finished yet. Extend it once it is ready.',
    ]);
    await completed(owner.cookie, id);
    const balance = await balanceOf(owner.user.id);
    const uploadsBefore = await uploadsOf(owner.user.id);

    const stranger = await extend(other.cookie);
    expect([stranger.statusCode, stranger.json<{ message: string }>().message]).toEqual([
      404,
      'This video was not found. It may have been deleted already.',
    ]);
    expect((await extend(owner.cookie, 'not-a-uuid')).statusCode).toBe(404);
    const badFade = await injectJson(t.app, 'POST', `/api/video-generation/${id}/extend`, {
      cookie: owner.cookie,
      body: { crossfade: 5 },
    });
    expect(badFade.statusCode).toBe(400);

    await t.db
      .update(generations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(generations.id, id));
    const expired = await extend(owner.cookie);
    expect([expired.statusCode, expired.json<{ message: string }>().message]).toEqual([
      400,
      'This video has expired (videos are kept for 24 hours), so it can no longer be extended.',
    ]);
    await t.db.update(generations).set({ status: 'failed' }).where(eq(generations.id, id));
    const failed = await extend(owner.cookie);
    expect([failed.statusCode, failed.json<{ message: string }>().message]).toEqual([
      400,
      'This video failed, so there is nothing to extend. Make it again, then extend it.',
    ]);

    // Not enough credits for the continuation: refused, and its frame upload is removed again.
    await t.db
      .update(generations)
      .set({ status: 'completed', expiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(generations.id, id));
    await t.db.update(users).set({ creditsHundredths: 0 }).where(eq(users.id, owner.user.id));
    const broke = await extend(owner.cookie);
    expect(broke.statusCode).toBe(402);
    expect(await uploadsOf(owner.user.id)).toBe(uploadsBefore);
    await t.db.update(users).set({ creditsHundredths: balance }).where(eq(users.id, owner.user.id));
    expect(await balanceOf(owner.user.id)).toBe(balance);
    const rows = await t.db.select().from(generations).where(eq(generations.userId, owner.user.id));
    expect(rows).toHaveLength(1);

    // The video's file went away while its record still said completed (a delete racing this request):
    // Extend and Continue answer 404, charging nothing and storing nothing.
    const ledgerRows = async () =>
      (await t.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.id))).length;
    const ledgerBefore = await ledgerRows();
    const [original] = rows;
    if (!original?.outputKey) throw new Error('the video has no file');
    await t.ctx.storage.delete(original.outputKey);
    const gone = await extend(owner.cookie);
    expect([gone.statusCode, gone.json<{ code: string }>().code]).toEqual([404, 'generation_not_found']);
    const frame = await injectJson(t.app, 'POST', `/api/video-generation/${id}/last-frame`, { cookie: owner.cookie });
    expect(frame.statusCode).toBe(404);
    expect(await ledgerRows()).toBe(ledgerBefore);
    expect(await balanceOf(owner.user.id)).toBe(balance);
    expect(await uploadsOf(owner.user.id)).toBe(uploadsBefore);
    expect(await t.db.select().from(generations).where(eq(generations.userId, owner.user.id))).toHaveLength(1);
  }, 200_000);

  it('Extend racing the delete of the same video answers 201 or 404, never 500; a 404 charges nothing', async () => {
    const owner = await payingUser(t, 10_000);
    const created = await generate(owner.cookie, { description: 'A kite over the dunes', duration: 2 });
    const id = created.json<GenerationRecord>().id;
    await completed(owner.cookie, id);
    const ledgerBefore = (await t.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.id))).length;
    const [extended, deleted] = await Promise.all([
      injectJson(t.app, 'POST', `/api/video-generation/${id}/extend`, { cookie: owner.cookie, body: {} }),
      injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie: owner.cookie }),
    ]);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect([201, 404], extended.body).toContain(extended.statusCode);
    const ledgerAfter = (await t.db.select().from(creditLedger).where(eq(creditLedger.userId, owner.user.id))).length;
    expect(ledgerAfter).toBe(extended.statusCode === 201 ? ledgerBefore + 1 : ledgerBefore);
  }, 200_000);
});

describe('Variations', () => {
  it('starts N jobs with different seeds in one group, each charged on its own ledger row', async () => {
    const { user, cookie } = await payingUser(t, 0);
    const price = await estimateHundredths(cookie, { duration: 2 });
    await t.db
      .update(users)
      .set({ creditsHundredths: price * 3 })
      .where(eq(users.id, user.id));
    const response = await generate(cookie, { description: 'Three paper boats', duration: 2, variations: 3 });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<CreatedGenerationRecord>();
    expect(created.group).toHaveLength(3);
    const groupId = created.groupId;
    expect(groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.group.every((record) => record.groupId === groupId)).toBe(true);
    expect(new Set(created.group.map((record) => record.settings?.seed)).size).toBe(3);
    expect(await balanceOf(user.id)).toBe(0);
    const ids = created.group.map((record) => record.id);
    const charges = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(
      charges
        .filter((row) => row.deltaHundredths === -price)
        .map((row) => row.reference)
        .sort(),
    ).toEqual(ids.map((id) => `generation:${id}`).sort());
    for (const id of ids) await completed(cookie, id);
  }, 300_000);

  it('creates none when the credits cover fewer than N, and refuses more than 4 or past the unfinished limit', async () => {
    const { user, cookie } = await payingUser(t, 0);
    const price = await estimateHundredths(cookie, { duration: 2 });
    await t.db
      .update(users)
      .set({ creditsHundredths: price * 2 })
      .where(eq(users.id, user.id));
    const short = await generate(cookie, { description: 'Three paper boats', duration: 2, variations: 3 });
    expect(short.statusCode).toBe(402);
    expect(short.json<{ message: string }>().message).toBe(
      `Need ${(price * 3) / 100} credits for 3 variations. You have ${(price * 2) / 100}.`,
    );
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(price * 2);

    expect((await generate(cookie, { description: 'Boats', variations: 5 })).statusCode).toBe(400);
    await t.db
      .update(users)
      .set({ creditsHundredths: price * 10 })
      .where(eq(users.id, user.id));
    const one = await generate(cookie, { description: 'One boat', duration: 2 });
    expect(one.statusCode).toBe(201);
    const tooMany = await generate(cookie, { description: 'Four boats', duration: 2, variations: 4 });
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json<{ message: string }>().message).toBe(
      'You have 1 video in progress, and 4 variations would make more than 4. Wait for one to finish, or make fewer variations.',
    );
    const rows = await t.db.select().from(generations).where(eq(generations.userId, user.id));
    expect(rows).toHaveLength(1);
    await completed(cookie, one.json<GenerationRecord>().id);
  }, 200_000);
});

const probeMedia = (file: string) => probeFile(binaries.ffprobe, file);
