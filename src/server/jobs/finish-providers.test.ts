import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../tests/support/app';
import { uploadFile } from '../../../tests/support/factories';
import type { FakeFal } from '../../../tests/support/fake-fal';
import { makeMediaFixtures } from '../../../tests/support/media';
import {
  FAL_PIPELINE_PUBLIC_URL,
  followJob,
  payingUser,
  startFalPipeline,
  startGeneration,
} from '../../../tests/support/pipeline';
import { type FinishingTool, finishPriceHundredths } from '../../shared/finishing';
import type { CreatedGenerationRecord } from '../../shared/generations';
import { creditLedger, generations, users } from '../db/schema';

// Finishing a video (issue 48) through fal.ai's tools, each call checked against the stand-in, which
// refuses any field its page does not document (tests/support/fake-fal.ts, FAL_DOCUMENTED_INPUTS):
// MMAudio's sound for a silent video, Sync Lipsync on a video with a face (refused before any charge
// on one without), and the ByteDance upscaler. Each makes a new video whose parent is the original,
// stored from the provider's answer, charged the tool's price.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures', name));
const ASTRONAUT = fixture('astronaut.png');
const COFFEE = fixture('coffee.png');

let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ fal, t, stop } = await startFalPipeline());
}, 120_000);
afterAll(() => stop());

const balanceOf = async (userId: string) =>
  (await t.db.select().from(users).where(eq(users.id, userId)))[0]?.creditsHundredths ?? 0;

/** A finished local video of the user's (2 s, 480p), with any fields of the request. */
async function original(cookie: string, body: object = {}) {
  const made = await startGeneration(t, cookie, { model: 'local', duration: 2, resolution: '480p', ...body });
  const { row } = await followJob(t, made.id, 120_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return row!;
}

/**
 * One paying user's finished local video for several tests that only finish it (each checks its own
 * charge as a difference and its own ledger row), made on first use: a render less per test.
 */
const SHARED_ORIGINALS = { silent: { prompt: 'Waves on a rocky shore', hasAudio: false }, plain: {} };
const sharedOriginals = new Map<keyof typeof SHARED_ORIGINALS, ReturnType<typeof makeSharedOriginal>>();
async function makeSharedOriginal(body: object) {
  const { user, cookie } = await payingUser(t, 20_000);
  return { user, cookie, video: await original(cookie, body) };
}
function sharedOriginal(name: keyof typeof SHARED_ORIGINALS) {
  let made = sharedOriginals.get(name);
  if (!made) sharedOriginals.set(name, (made = makeSharedOriginal(SHARED_ORIGINALS[name])));
  return made;
}

/**
 * The stored object a link handed to the provider names (our signed media link, /api/media/<key as
 * base64url>); the copies it names are removed once the job is stored, so the link is read, not fetched.
 */
function keyOfLink(link: unknown): string {
  expect(String(link).startsWith(`${FAL_PIPELINE_PUBLIC_URL}/api/media/`)).toBe(true);
  const id = new URL(String(link)).pathname.split('/').at(-1) ?? '';
  return Buffer.from(id, 'base64url').toString();
}

async function toolNamed(cookie: string, id: string): Promise<FinishingTool> {
  const tools = (await injectJson(t.app, 'GET', '/api/finishing', { cookie })).json<{ tools: FinishingTool[] }>().tools;
  const tool = tools.find((candidate) => candidate.id === id);
  expect(tool?.available, id).toBe(true);
  return tool!;
}

/**
 * Finishes the video with the tool and follows the new one to its end: answers its finished row and
 * the one request the stand-in received for it, having checked the parent, the stored answer and the charge.
 */
async function finishWith(
  user: { id: string },
  cookie: string,
  video: { id: string; outputDuration: number | null },
  body: Record<string, unknown>,
) {
  const tool = await toolNamed(cookie, String(body.tool));
  const before = await balanceOf(user.id);
  const submitted = fal.requests.length;
  const made = await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/finish`, { cookie, body });
  expect(made.statusCode, made.body).toBe(201);
  const record = made.json<CreatedGenerationRecord>();
  expect(record).toMatchObject({ model: tool.id, parentId: video.id });
  const { row } = await followJob(t, record.id, 120_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  expect(row?.parentId).toBe(video.id);
  // Stored from the provider's answer: the stand-in's video, signed (so not byte for byte), as long as it.
  expect(row?.outputDuration).toBeCloseTo(3, 0);
  // The tool's price for the original's measured length, taken once, in one ledger row.
  const price = finishPriceHundredths(tool, row?.finish?.sourceSeconds ?? 0);
  expect(price).toBeGreaterThan(0);
  expect(before - (await balanceOf(user.id))).toBe(price);
  expect(record.creditsUsed * 100).toBe(price);
  const ledger = await t.db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.reference, `generation:${record.id}`));
  expect(ledger.map((entry) => entry.deltaHundredths)).toEqual([-price]);
  expect(fal.requests.length).toBe(submitted + 1);
  const request = fal.requests.at(-1)!;
  // The link handed to the provider names the copy of the original the job worked on.
  expect(keyOfLink(request.input.video_url)).toBe(row?.finish?.sourceKey);
  return { row: row!, request, tool };
}

describe('finishing through fal.ai', () => {
  it('gives a silent video MMAudio’s sound, described, for its length', async () => {
    const { user, cookie, video: silent } = await sharedOriginal('silent');
    const { row, request, tool } = await finishWith(user, cookie, silent, {
      action: 'add-sound',
      tool: 'fal-mmaudio',
      prompt: 'Waves crashing, gulls',
    });
    expect(tool.ai).toBe(true);
    expect(request.endpoint).toBe('fal-ai/mmaudio-v2');
    expect(request.input).toEqual({
      video_url: request.input.video_url,
      prompt: 'Waves crashing, gulls',
      duration: Math.ceil(row.finish!.sourceSeconds),
    });
    expect(row.hasAudio).toBe(true);
    expect(row.credentials?.edits).toEqual([{ action: 'c2pa.edited', description: tool.method, by: tool.name }]);
  }, 180_000);

  it('upscales through the ByteDance upscaler at the resolution and frame rate asked', async () => {
    const { user, cookie, video } = await sharedOriginal('plain');
    const { request } = await finishWith(user, cookie, video, {
      action: 'upscale',
      tool: 'fal-bytedance-upscale',
      resolution: '2160p',
      fps: 60,
    });
    expect(request.endpoint).toBe('fal-ai/bytedance-upscaler/upscale/video');
    expect(request.input).toEqual({ video_url: request.input.video_url, target_resolution: '4k', target_fps: '60fps' });
  }, 180_000);

  it('restyles a video from a description and a picture to follow through Luma Ray 2 Modify', async () => {
    const { user, cookie, video } = await sharedOriginal('plain');
    const look = await uploadFile(t.app, cookie, COFFEE);
    const { request, row } = await finishWith(user, cookie, video, {
      action: 'restyle',
      tool: 'fal-ray2-modify',
      prompt: 'As a watercolour painting',
      imageFile: look,
    });
    expect(request.endpoint).toBe('fal-ai/luma-dream-machine/ray-2/modify');
    expect(request.input).toEqual({
      video_url: request.input.video_url,
      prompt: 'As a watercolour painting',
      mode: 'flex_1',
      image_url: request.input.image_url,
    });
    expect(keyOfLink(request.input.image_url)).toBe(row.finish?.image?.key);
  }, 180_000);

  it('fails a tool’s run error in plain words, and lets go of the copies it was given', async () => {
    const { cookie, video } = await sharedOriginal('silent');
    fal.outcome = 'error';
    try {
      const made = await injectJson(t.app, 'POST', `/api/video-generation/${video.id}/finish`, {
        cookie,
        body: { action: 'add-sound', tool: 'fal-mmaudio' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const { row } = await followJob(t, made.json<CreatedGenerationRecord>().id, 120_000);
      expect(row).toMatchObject({
        status: 'failed',
        errorMessage: 'fal.ai could not make this video. The model ran out of memory on this input.',
      });
      // MMAudio was asked for the video's own description when none was given for the sound.
      expect(fal.requests.at(-1)?.input.prompt).toBe(video.prompt);
      for (const key of [row!.finish!.sourceKey]) {
        await expect(t.ctx.storage.read(key)).rejects.toThrow();
      }
    } finally {
      fal.outcome = 'video';
    }
  }, 180_000);

  it('lip-syncs a video with a face to an uploaded voice, and refuses one with none before any charge', async () => {
    // The shared local original shows no face (the local engine's preview from words alone).
    const { user, cookie, video: faceless } = await sharedOriginal('plain');
    const voiceBytes = (await makeMediaFixtures()).audio;
    const voice = await uploadFile(t.app, cookie, voiceBytes);
    const before = await balanceOf(user.id);
    const submitted = fal.requests.length;
    const childrenOf = (id: string) => t.db.select().from(generations).where(eq(generations.parentId, id));
    const children = await childrenOf(faceless.id);
    const refused = await injectJson(t.app, 'POST', `/api/video-generation/${faceless.id}/finish`, {
      cookie,
      body: { action: 'lip-sync', tool: 'fal-sync-lipsync', audioFile: voice },
    });
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([400, 'no_face']);
    expect(refused.json<{ message: string }>().message).toContain('shows no face');
    expect(await balanceOf(user.id)).toBe(before);
    expect(fal.requests.length).toBe(submitted);
    expect(await childrenOf(faceless.id)).toEqual(children);

    // The astronaut's picture as the start frame (consented to): the local engine's video shows the face.
    const picture = await uploadFile(t.app, cookie, ASTRONAUT);
    const speaker = await original(cookie, { imageFile: picture, consentToLikeness: true });
    const { request, row } = await finishWith(user, cookie, speaker, {
      action: 'lip-sync',
      tool: 'fal-sync-lipsync',
      audioFile: voice,
    });
    expect(request.endpoint).toBe('fal-ai/sync-lipsync/v2');
    expect(request.input).toEqual({
      video_url: request.input.video_url,
      audio_url: request.input.audio_url,
      model: 'lipsync-2',
      sync_mode: 'cut_off',
    });
    expect(keyOfLink(request.input.audio_url)).toBe(row.finish?.audio?.key);
    // The consent given for the face is carried by the lip-synced video.
    expect(row.consent).not.toBeNull();
  }, 180_000);
});
