import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { independentlyRead } from '../../../tests/support/credentials';
import { type FakeKling, startFakeKling } from '../../../tests/support/fake-kling';
import { makeClip, probeBytes } from '../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline, extendVideo } from '../../../tests/support/pipeline';
import type { AdvancedSettings } from '../../shared/generations';
import { loadConfig } from '../config';
import { uploads } from '../db/schema';
import type { GenerationExtension } from '../db/schema';
import { createEngineRegistry } from '../engines';
import type { ProviderExtend } from '../engines/catalogue';
import { extendMethod } from '../modules/generations/extend.service';

// Extend through Kling's own video-extend call (the original named by Kling's video_id) for a video
// the direct Kling engine made whole, and the last-frame-and-join way otherwise, through the whole
// pipeline against Kling's stand-in (tests/support/fake-kling.ts, whose header cites the documentation).

let kling: FakeKling;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  // What Kling answers: a 3 s clip for a render, and for an extend the original with about 5 s more.
  kling = await startFakeKling(await makeClip(3), await makeClip(8));
  // No test here watches Kling's phases: each task finishes as soon as two polls allow.
  kling.stepMs = 20;
  ({ t, stop } = await startPipeline({
    KLING_ACCESS_KEY: kling.accessKey,
    KLING_SECRET_KEY: kling.secretKey,
    KLING_BASE_URL: kling.baseUrl,
    KLING_VIDEO_EXTEND: 'true',
  }));
}, 120_000);
afterAll(async () => {
  await stop();
  await kling.close();
});

async function stored(key: string | null | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.ctx.storage.read(key ?? '')) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function finished(id: string) {
  const { row } = await followJob(t, id, 60_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return row;
}

const extend = (cookie: string, id: string, body: object) => extendVideo(t, cookie, id, body);

/** The Kling task a generation's saved provider task names (`<endpoint>:<task id>`). */
const taskOf = (providerTaskId: string | null | undefined) =>
  kling.tasks.find((task) => `${task.endpoint}:${task.id}` === providerTaskId);

/**
 * One Kling-made original for the tests that extend it by joining, made on first use: each makes
 * its own continuations of it, and none looks at what the other made.
 */
let joinOriginal: Promise<{ cookie: string; original: Awaited<ReturnType<typeof finished>> }> | undefined;
function sharedOriginal() {
  joinOriginal ??= (async () => {
    const { cookie } = await payingUser(t, 100_000);
    const original = await finished((await startGeneration(t, cookie, { model: 'kling-v2v', duration: 5 })).id);
    return { cookie, original };
  })();
  return joinOriginal;
}

describe("Extend through Kling's video-extend", () => {
  it('is used only where the operator turned KLING_VIDEO_EXTEND on (not every Kling version extends)', async () => {
    // The catalogue an installation without the setting builds: the app builds its own the same way
    // (createServiceContext), and a whole second app and database would only add seconds.
    const off = createEngineRegistry(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: t.dataDir,
        SESSION_SECRET: t.config.sessionSecret,
        KLING_ACCESS_KEY: kling.accessKey,
        KLING_SECRET_KEY: kling.secretKey,
        KLING_BASE_URL: kling.baseUrl,
      }),
    );
    expect(off.providerExtend('kling-v2v')).toBeNull();
    expect(t.ctx.engines.providerExtend('kling-v2v')).toMatchObject({ endpoint: 'v1/videos/video-extend' });
  });

  it('sends Kling the original’s own video id and stores Kling’s whole extended video as it is, charged as the 5 s continuation', async () => {
    const { user, cookie } = await payingUser(t, 100_000);
    const original = await finished((await startGeneration(t, cookie, { model: 'kling-v2v', duration: 5 })).id);
    const made = taskOf(original?.providerTaskId);
    expect(made?.endpoint).toBe('text2video');
    const estimate = await injectJson(t.app, 'POST', '/api/credits/estimate', {
      cookie,
      body: { model: 'kling-v2v', duration: 5 },
    });
    const price = Math.round(estimate.json<{ data: { totalCost: number } }>().data.totalCost * 100);

    const before = kling.tasks.length;
    const created = await extend(cookie, original?.id ?? '', { prompt: 'The boat sails under a bridge', duration: 5 });
    expect(created).toMatchObject({ parentId: original?.id, status: 'pending' });
    expect(Math.round(created.creditsUsed * 100)).toBe(price);
    const row = await finished(created.id);

    const call = taskOf(row?.providerTaskId);
    expect(kling.refused).toEqual([]);
    expect(call?.endpoint).toBe('video-extend');
    expect(call?.body).toEqual({ video_id: made?.video.id, prompt: 'The boat sails under a bridge', cfg_scale: 0.5 });
    // Kling's answer is the video: one call, stored whole (its sound track dropped, as for every
    // Kling-V2V video), not joined to the original again (3 s + 8 s); no last frame made.
    expect(kling.tasks.length - before).toBe(1);
    const video = await stored(row?.outputKey);
    const info = await probeBytes(video);
    expect(info.durationSeconds).toBeCloseTo(8, 1);
    // Kling's whole longer video, signed as its AI render with the original as the parent.
    const read = await independentlyRead(video);
    expect(read).toMatchObject({ valid: true, sourceType: 'trainedAlgorithmicMedia' });
    expect(read?.ingredients.map((ingredient) => ingredient.relationship)).toContain('parentOf');
    expect(row?.outputDuration).toBeCloseTo(8, 1);
    expect(row?.extension).toMatchObject({
      method: 'provider',
      crossfadeSeconds: 0,
      originalTask: original?.providerTaskId,
    });
    expect(await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([]);
    expect(await t.ctx.storage.stat(row?.extension?.baseKey ?? '')).toBeNull();

    // Grown again in a second step: Kling extends its own extended video, named by its new id.
    const again = await finished((await extend(cookie, row?.id ?? '', { duration: 5 })).id);
    expect(taskOf(again?.providerTaskId)?.body).toMatchObject({ video_id: call?.video.id });
    expect(again?.extension).toMatchObject({ method: 'provider', originalTask: row?.providerTaskId });
  }, 90_000);

  it('joins the way it does today when a crossfade or a 10 s continuation is asked for', async () => {
    const { cookie, original } = await sharedOriginal();

    const faded = await finished((await extend(cookie, original?.id ?? '', { duration: 5, crossfade: 0.5 })).id);
    expect(taskOf(faded?.providerTaskId)?.endpoint).toBe('image2video');
    expect(taskOf(faded?.providerTaskId)?.body).toHaveProperty('image');
    expect(faded?.extension).toMatchObject({ method: 'join', crossfadeSeconds: 0.5 });
    expect(faded?.extension?.originalTask).toBeUndefined();
    const info = await probeBytes(await stored(faded?.outputKey));
    expect(info.durationSeconds).toBeCloseTo((original?.outputDuration ?? 0) + 3 - 0.5, 0);

    const longer = await finished((await extend(cookie, original?.id ?? '', { duration: 10 })).id);
    expect(taskOf(longer?.providerTaskId)?.endpoint).toBe('image2video');
    expect(longer?.extension).toMatchObject({ method: 'join' });
  }, 120_000);

  it('joins when the original is not a video Kling made whole (an extension joined here)', async () => {
    const { cookie, original } = await sharedOriginal();
    const joined = await finished((await extend(cookie, original?.id ?? '', { duration: 5, crossfade: 0.25 })).id);

    // Its saved task made only the continuation: Kling has no video that is this one.
    const row = await finished((await extend(cookie, joined?.id ?? '', { duration: 5 })).id);
    expect(taskOf(row?.providerTaskId)?.endpoint).toBe('image2video');
    expect(row?.extension).toMatchObject({ method: 'join' });
    expect(kling.refused).toEqual([]);
  }, 120_000);
});

describe("which way a Kling Extend is made (its call names Kling's own video)", () => {
  const limits: ProviderExtend = {
    endpoint: 'v1/videos/video-extend',
    madeBy: ['text2video', 'image2video', 'video-extend'],
    maxInputSeconds: 175,
    addsSeconds: 5,
    resolutions: ['720p', '1080p'],
    aspectRatios: ['16:9', '9:16', '1:1'],
  };
  const original = (providerTaskId: string | null, extension: GenerationExtension | null = null) => ({
    outputDuration: 5.02,
    requestedDuration: 5,
    settings: { aspectRatio: '1:1', resolution: '720p' } satisfies AdvancedSettings,
    providerTaskId,
    extension,
  });
  const base = { baseKey: 'k', crossfadeSeconds: 0 };

  it.each([
    ['a text-to-video original', 'provider', original('text2video:81')],
    ['an image-to-video original', 'provider', original('image2video:81')],
    ['an original extended by Kling', 'provider', original('video-extend:81', { ...base, method: 'provider' })],
    ['an original joined here', 'join', original('image2video:81', { ...base, method: 'join' })],
    ['an extension from before the method was recorded', 'join', original('image2video:81', base)],
    ['an omni-video edit (Kling does not extend it)', 'join', original('omni-video:81')],
    ['a record without a provider task', 'join', original(null)],
    ['a bare task id', 'join', original('81')],
  ] as const)('%s goes the %s way', (_name, method, from) => {
    expect(extendMethod(limits, from, { crossfadeSeconds: 0, continuationSeconds: 5, durations: [5, 10] })).toBe(
      method,
    );
  });

  it('an original of over 175 s (180 s after) goes the join way', () => {
    const long = { ...original('text2video:81'), outputDuration: 176 };
    expect(extendMethod(limits, long, { crossfadeSeconds: 0, continuationSeconds: 5, durations: [5, 10] })).toBe(
      'join',
    );
  });
});
