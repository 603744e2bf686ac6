import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { makeMediaFixtures, probeStreams } from '../../../../tests/support/media';
import { modelsConfigFile } from '../../../../tests/support/models-config';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import { type FinishingTool, finishPriceHundredths } from '../../../shared/finishing';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import { creditLedger, generations, users } from '../../db/schema';
import { UPSCALE_METHOD_WORDS } from '../../media/upscale';
import { MIX_METHOD_WORDS } from '../../engines/finishing';

// Finishing a video (issue 48) through the API and the worker on this server's own tools: a
// finished local video upscaled, and a silent one given an uploaded recording. Each is a new video
// whose parent is the original, charged the tool's price (here the operator's, from MODELS_CONFIG);
// a request the tools cannot take is refused before any charge and leaves nothing behind.

const COFFEE = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/coffee.png'));

let t: TestApp;
let stop: () => Promise<void>;
let dir: string;
const config = modelsConfigFile({}, { 'local-upscale': { credits: 0.25, per: 'second' } });

beforeAll(async () => {
  ({ t, stop } = await startPipeline({ MODELS_CONFIG: config.file }));
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-finish-'));
}, 180_000);
afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
  config.remove();
});

/** A finished local video of this user's (480p, 2 s). */
async function finished(cookie: string, body: object = {}) {
  const made = await startGeneration(t, cookie, { model: 'local', duration: 2, resolution: '480p', ...body });
  const { row } = await followJob(t, made.id, 120_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return row!;
}

const finish = (cookie: string, id: string, body: object) =>
  injectJson(t.app, 'POST', `/api/video-generation/${id}/finish`, { cookie, body });

async function tools(cookie: string): Promise<FinishingTool[]> {
  const answer = await injectJson(t.app, 'GET', '/api/finishing', { cookie });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ tools: FinishingTool[] }>().tools;
}

const balanceOf = async (userId: string) =>
  (await t.db.select().from(users).where(eq(users.id, userId)))[0]?.creditsHundredths;

/** What ffprobe says of a stored video. */
async function examine(key: string) {
  const file = path.join(dir, `${path.basename(key)}.mp4`);
  await pipeline(await t.ctx.storage.read(key), createWriteStream(file));
  const { streams, format } = await probeStreams(file);
  return {
    video: streams.find((stream) => stream.codec_type === 'video'),
    audio: streams.filter((stream) => stream.codec_type === 'audio'),
    seconds: Number(format.duration),
  };
}

/** The copies finishing jobs hold in the user's outputs now. */
const finishCopiesOf = (userId: string) =>
  readdirSync(path.join(t.dataDir, 'objects', 'outputs', userId)).filter((name) => name.startsWith('finish-'));

describe('finishing a video on this server', () => {
  it('lists the installation’s tools with the operator’s price, honest about what is not AI', async () => {
    const { cookie } = await payingUser(t);
    const listed = await tools(cookie);
    expect(listed.map((tool) => [tool.id, tool.action, tool.available, tool.ai])).toEqual([
      ['local-upscale', 'upscale', true, false],
      ['local-mix', 'add-sound', true, false],
      ['fal-mmaudio', 'add-sound', false, true],
      ['fal-sync-lipsync', 'lip-sync', false, true],
      ['fal-bytedance-upscale', 'upscale', false, true],
      ['fal-ray2-modify', 'restyle', false, true],
    ]);
    // A provider's tool says why it is not here, without the operator's setting names.
    expect(listed[2]?.reason).toBe('Not available on this server: it has no fal.ai key.');
    expect(listed[0]).toMatchObject({
      credits: 0.25,
      pricePer: 'second',
      resolutions: ['1080p', '2160p'],
      fps: [48, 60],
    });
    expect(listed[0]?.method).toContain('not by AI');
    expect(listed[1]).toMatchObject({ credits: 0.1, pricePer: 'video', audio: 'required' });
  }, 180_000);

  it('upscales a 480p video to 1080p as a new video of the same length, its parent the original, charged the tool’s price', async () => {
    const { user, cookie } = await payingUser(t, 2000);
    const original = await finished(cookie, { prompt: 'A lighthouse at dusk', hasAudio: true });
    const before = await balanceOf(user.id);
    const made = await finish(cookie, original.id, { action: 'upscale', resolution: '1080p' });
    expect(made.statusCode, made.body).toBe(201);
    const record = made.json<CreatedGenerationRecord>();
    expect(record).toMatchObject({ model: 'local-upscale', parentId: original.id, prompt: 'A lighthouse at dusk' });

    const tool = (await tools(cookie)).find((candidate) => candidate.id === 'local-upscale')!;
    const source = await examine(original.outputKey!);
    const price = finishPriceHundredths(tool, source.seconds);
    expect(price).toBeGreaterThanOrEqual(50);
    expect(record.creditsUsed * 100).toBe(price);
    expect((before ?? 0) - (await balanceOf(user.id))!).toBe(price);
    const ledger = await t.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.reference, `generation:${record.id}`));
    expect(ledger.map((row) => [row.deltaHundredths, row.reason])).toEqual([
      [-price, 'Upscale and smooth (Upscale and smooth on this server)'],
    ]);

    const { row } = await followJob(t, record.id, 180_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const result = await examine(row!.outputKey!);
    expect(result.video).toMatchObject({ width: 1920, height: 1080, codec_name: 'h264' });
    expect(Math.abs(result.seconds - source.seconds)).toBeLessThan(0.1);
    expect(result.audio).toHaveLength(source.audio.length);
    // Its Content Credentials name the original as its parent and the upscale as not AI.
    expect(row?.credentials?.ingredients).toEqual([
      expect.objectContaining({ title: `${original.id}.mp4`, relationship: 'parentOf', hasCredentials: true }),
    ]);
    expect(row?.credentials?.edits).toEqual([
      { action: 'c2pa.resized', description: UPSCALE_METHOD_WORDS, by: 'Upscale and smooth on this server' },
    ]);
    expect(row?.credentials?.sourceType).toBe('algorithmicMedia');
    // The copies the job worked on are gone once it is stored.
    expect(finishCopiesOf(user.id)).toEqual([]);

    // Finished again (a recording under the upscaled master): still made by the local engine, not AI.
    const audioFile = await uploadFile(t.app, cookie, (await makeMediaFixtures()).audio);
    const again = await finish(cookie, record.id, { action: 'add-sound', audioFile });
    expect(again.statusCode, again.body).toBe(201);
    const master = (await followJob(t, again.json<CreatedGenerationRecord>().id, 180_000)).row;
    expect(master?.status, master?.errorMessage ?? '').toBe('completed');
    expect(master?.finish?.sourceModel).toBe('local');
    expect(master?.credentials?.sourceType).toBe('algorithmicMedia');
  }, 180_000);

  it('gives a silent video an uploaded recording as its sound, as long as the picture', async () => {
    const { user, cookie } = await payingUser(t, 2000);
    const original = await finished(cookie, { hasAudio: false });
    expect((await examine(original.outputKey!)).audio).toHaveLength(0);
    const audioFile = await uploadFile(t.app, cookie, (await makeMediaFixtures()).audio);
    const before = await balanceOf(user.id);
    const made = await finish(cookie, original.id, { action: 'add-sound', audioFile });
    expect(made.statusCode, made.body).toBe(201);
    const record = made.json<CreatedGenerationRecord>();
    expect(record).toMatchObject({ model: 'local-mix', parentId: original.id, hasAudio: true, creditsUsed: 0.1 });
    expect((before ?? 0) - (await balanceOf(user.id))!).toBe(10);

    const { row } = await followJob(t, record.id, 120_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const source = await examine(original.outputKey!);
    const result = await examine(row!.outputKey!);
    expect(result.audio).toHaveLength(1);
    expect(Math.abs(Number(result.audio[0]?.duration) - Number(source.video?.duration))).toBeLessThan(0.1);
    expect(result.video).toMatchObject({ width: source.video?.width, height: source.video?.height });
    expect(row?.credentials?.edits).toEqual([
      { action: 'c2pa.edited', description: MIX_METHOD_WORDS, by: 'Add your recording on this server' },
    ]);
  }, 180_000);

  it('refuses what the tools cannot take, someone else’s video and an unfinished one, before any charge, leaving nothing', async () => {
    const { user, cookie } = await payingUser(t, 2000);
    const original = await finished(cookie);
    const picture = await uploadFile(t.app, cookie, COFFEE);
    const before = await balanceOf(user.id);
    const refused: [string, object, number, string][] = [
      [original.id, { action: 'lip-sync', audioFile: picture }, 400, 'finish_not_available'],
      [original.id, { action: 'restyle', prompt: 'As a watercolour' }, 400, 'finish_not_available'],
      [original.id, { action: 'add-sound' }, 400, 'audio_required'],
      [original.id, { action: 'add-sound', audioFile: picture }, 400, 'wrong_input_kind'],
      [original.id, { action: 'add-sound', audioFile: `/objects/uploads/${user.id}/none` }, 400, 'invalid_upload'],
      [original.id, { action: 'upscale', resolution: '1080p', tool: 'fal-topaz' }, 400, 'unknown_finishing_tool'],
      [original.id, { action: 'upscale', resolution: '1080p', tool: 'local-mix' }, 400, 'finish_not_supported'],
      [original.id, { action: 'upscale' }, 400, 'validation_failed'],
      [original.id, { action: 'upscale', fps: 30 }, 400, 'validation_failed'],
      [original.id, { action: 'upscale', resolution: '720p' }, 400, 'validation_failed'],
      [original.id, { action: 'sharpen' }, 400, 'validation_failed'],
      ['not-a-uuid', { action: 'upscale', resolution: '1080p' }, 404, 'generation_not_found'],
    ];
    for (const [id, body, status, code] of refused) {
      const answer = await finish(cookie, id, body);
      expect([answer.statusCode, answer.json<{ code: string }>().code], JSON.stringify(body)).toEqual([status, code]);
    }
    const other = await signIn(t.app, await createUser(t.db, { creditsHundredths: 1000 }));
    const theirs = await finish(other, original.id, { action: 'upscale', resolution: '1080p' });
    expect([theirs.statusCode, theirs.json<{ code: string }>().code]).toEqual([404, 'generation_not_found']);
    // The same video made unfinished (waiting a day, so no worker takes it meanwhile), then failed:
    // what is refused is its status, so it needs no second render.
    const later = new Date(Date.now() + 86_400_000);
    await t.db.update(generations).set({ status: 'pending', runAfter: later }).where(eq(generations.id, original.id));
    const early = await finish(cookie, original.id, { action: 'upscale', resolution: '1080p' });
    expect([early.statusCode, early.json<{ code: string }>().code]).toEqual([409, 'not_finished']);
    await t.db.update(generations).set({ status: 'failed' }).where(eq(generations.id, original.id));
    const failed = await finish(cookie, original.id, { action: 'upscale', resolution: '1080p' });
    expect([failed.statusCode, failed.json<{ code: string }>().code]).toEqual([400, 'not_finishable']);

    expect(await balanceOf(user.id)).toBe(before);
    const children = await t.db.select().from(generations).where(eq(generations.parentId, original.id));
    expect(children).toEqual([]);
    expect(finishCopiesOf(user.id)).toEqual([]);
  }, 180_000);
});
