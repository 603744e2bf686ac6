import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import { makeClip, probeBytes } from '../../../tests/support/media';
import {
  followJob,
  payingUser,
  startGeneration,
  startPipeline,
  waitUntil,
  extendVideo,
} from '../../../tests/support/pipeline';
import type { AdvancedSettings } from '../../shared/generations';
import { uploads } from '../db/schema';
import type { ProviderExtend } from '../engines/catalogue';
import { extendMethod } from '../modules/generations/extend.service';

// Extend through fal's own extend call (fal-ai/veo3.1/extend-video) where the original fits it, and
// the last-frame-and-join way otherwise, through the whole pipeline against fal's stand-in
// (tests/support/fake-fal.ts, whose header cites the endpoint's documentation).

const PUBLIC_URL = 'https://reelsmith.example';

let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;
let clip: Buffer;

beforeAll(async () => {
  clip = await makeClip(3);
  fal = await startFakeFal(clip);
  // What fal answers for an extend: the 3 s original with Veo's 7 s more, as one video.
  fal.extendedVideo = await makeClip(10);
  ({ t, stop } = await startPipeline({ FAL_KEY: fal.key, FAL_BASE_URL: fal.baseUrl, PUBLIC_URL }));
}, 120_000);
afterAll(async () => {
  await stop();
  await fal.close();
});
beforeEach(() => {
  fal.stepMs = 30;
  fal.video = clip;
});

async function stored(key: string | null | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.ctx.storage.read(key ?? '')) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A finished Veo 3.1 video (with sound) of this user's, made through fal's stand-in. */
async function veoOriginal(cookie: string, body: object = {}) {
  const record = await startGeneration(t, cookie, { model: 'fal-veo3.1', hasAudio: true, duration: 8, ...body });
  const { row } = await followJob(t, record.id);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return row;
}

const extend = (cookie: string, id: string, body: object) => extendVideo(t, cookie, id, body);

/** What fal's stand-in received for a job (the request its saved task names). */
function submittedFor(providerTaskId: string | null | undefined) {
  return fal.requests.filter((r) => providerTaskId?.includes(r.id));
}

describe("Extend through fal's extend-video", () => {
  it('sends the original itself to fal-ai/veo3.1/extend-video and stores fal’s whole longer video as it is, charged as the continuation', async () => {
    const { user, cookie } = await payingUser(t, 100_000);
    const original = await veoOriginal(cookie, { aspectRatio: '9:16' });
    const originalBytes = await stored(original?.outputKey);
    const estimate = await injectJson(t.app, 'POST', '/api/credits/estimate', {
      cookie,
      body: { model: 'fal-veo3.1', duration: 8, hasAudio: true },
    });
    const price = Math.round(estimate.json<{ data: { totalCost: number } }>().data.totalCost * 100);

    // Slow enough to fetch the link fal gets while the job runs (the copy is removed once it is stored).
    fal.stepMs = 400;
    const before = fal.requests.length;
    const created = await extend(cookie, original?.id ?? '', { prompt: 'The cat jumps off the board', duration: 8 });
    expect(created).toMatchObject({ parentId: original?.id, status: 'pending' });
    expect(Math.round(created.creditsUsed * 100)).toBe(price);

    await waitUntil(() => fal.requests.length > before);
    const request = fal.requests.at(-1);
    expect(fal.refused).toEqual([]);
    expect(request?.endpoint).toBe('fal-ai/veo3.1/extend-video');
    expect(Object.keys(request?.input ?? {}).sort()).toEqual(
      ['aspect_ratio', 'duration', 'generate_audio', 'prompt', 'resolution', 'video_url'].sort(),
    );
    expect(request?.input).toMatchObject({
      prompt: 'The cat jumps off the board',
      aspect_ratio: '9:16',
      duration: '7s',
      resolution: '720p',
      generate_audio: true,
    });
    // video_url is our signed link to the copy of the original: fetchable, and the original's bytes.
    const link = String(request?.input.video_url);
    expect(link.startsWith(`${PUBLIC_URL}/api/media/`)).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: link.slice(PUBLIC_URL.length) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(originalBytes)).toBe(true);

    const { row } = await followJob(t, created.id);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    // One call (no continuation rendered from a last frame), and no last frame made.
    expect(fal.requests.length - before).toBe(1);
    expect(await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([]);
    // fal's answer is the video: its media data stored byte for byte (with its Content Credentials
    // added beside it), not joined to the original again.
    const kept = await stored(row?.outputKey);
    expect(mediaData(kept).equals(mediaData(fal.extendedVideo ?? Buffer.alloc(0)))).toBe(true);
    expect(kept.includes(Buffer.from('c2pa'))).toBe(true);
    expect(row?.outputDuration).toBeCloseTo(10, 1);
    expect(row?.extension).toMatchObject({ method: 'provider', crossfadeSeconds: 0 });
    expect(await t.ctx.storage.stat(row?.extension?.baseKey ?? '')).toBeNull();
  }, 60_000);

  it('extends an original over 8 s from its last frame and joins the two', async () => {
    const { cookie } = await payingUser(t, 100_000);
    fal.video = await makeClip(9);
    const original = await veoOriginal(cookie);
    fal.video = clip;
    expect(original?.outputDuration).toBeGreaterThan(8.5);

    const created = await extend(cookie, original?.id ?? '', { duration: 8 });
    const { row } = await followJob(t, created.id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const calls = submittedFor(row?.providerTaskId);
    expect(calls.map((c) => c.endpoint)).toEqual(['fal-ai/veo3.1/image-to-video']);
    expect(calls[0]?.input).toHaveProperty('image_url');
    expect(row?.extension).toMatchObject({ method: 'join' });
    // The 9 s original and the 3 s continuation, joined.
    const info = await probeBytes(await stored(row?.outputKey));
    expect(info.durationSeconds).toBeCloseTo((original?.outputDuration ?? 0) + 3, 0);
  }, 90_000);

  it('joins the way it does today when a crossfade is asked for (fal’s call has none)', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const original = await veoOriginal(cookie);
    const created = await extend(cookie, original?.id ?? '', { duration: 8, crossfade: 0.5 });
    const { row } = await followJob(t, created.id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    expect(submittedFor(row?.providerTaskId).map((c) => c.endpoint)).toEqual(['fal-ai/veo3.1/image-to-video']);
    expect(row?.extension).toMatchObject({ method: 'join', crossfadeSeconds: 0.5 });
    const info = await probeBytes(await stored(row?.outputKey));
    expect(info.durationSeconds).toBeCloseTo((original?.outputDuration ?? 0) + 3 - 0.5, 0);
    expect(row?.parentId).toBe(original?.id);
  }, 90_000);
});

describe('which way an Extend is made', () => {
  const limits: ProviderExtend = {
    endpoint: 'fal-ai/veo3.1/extend-video',
    maxInputSeconds: 8,
    addsSeconds: 7,
    resolutions: ['720p', '1080p'],
    aspectRatios: ['16:9', '9:16'],
  };
  const original = (settings: AdvancedSettings, outputDuration: number | null = 8.02) => ({
    outputDuration,
    requestedDuration: 8,
    settings: { aspectRatio: '16:9', resolution: '1080p', ...settings } satisfies AdvancedSettings,
    providerTaskId: null,
    extension: null,
  });

  it.each([
    ['an 8 s 1080p 16:9 video without a crossfade', limits, original({}), 0, 'provider'],
    ['a model without an extend call', null, original({}), 0, 'join'],
    ['a crossfade', limits, original({}), 0.25, 'join'],
    ['a video over 8 s', limits, original({}, 8.5), 0, 'join'],
    ['a record without a measured length, asked for 8 s', limits, original({}, null), 0, 'provider'],
    ['a square video', limits, original({ aspectRatio: '1:1' }), 0, 'join'],
    ['a 480p video', limits, original({ resolution: '480p' }), 0, 'join'],
    ['a record that does not state its shape', limits, original({ aspectRatio: undefined }), 0, 'join'],
  ] as const)('%s', (_name, extend, from, crossfade, method) => {
    expect(
      extendMethod(extend, from, { crossfadeSeconds: crossfade, continuationSeconds: 8, durations: [4, 6, 8] }),
    ).toBe(method);
  });

  it.each([
    [8, 'provider'],
    [6, 'join'],
    [4, 'join'],
  ] as const)(
    'a %i s continuation of Veo 3.1 (4, 6 or 8 s; its extend call adds 7 s) goes the %s way',
    (seconds, method) => {
      expect(
        extendMethod(limits, original({}), { crossfadeSeconds: 0, continuationSeconds: seconds, durations: [4, 6, 8] }),
      ).toBe(method);
    },
  );
});

/** The payload of an MP4's top-level `mdat` box (the coded pictures and sound). */
function mediaData(file: Buffer): Buffer {
  for (let offset = 0; offset + 8 <= file.length;) {
    let size = file.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      size = Number(file.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) size = file.length - offset;
    if (file.toString('latin1', offset + 4, offset + 8) === 'mdat')
      return file.subarray(offset + header, offset + size);
    offset += size;
  }
  throw new Error('no mdat box');
}
