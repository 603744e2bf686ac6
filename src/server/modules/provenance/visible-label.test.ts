import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { type FakeFal, startFakeFal } from '../../../../tests/support/fake-fal';
import { contrast, greyImage, meanDifference } from '../../../../tests/support/frames';
import { binaries, makeMediaFixtures, probeBytes } from '../../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';

// VISIBLE_AI_LABEL (issue 42): a small "AI" mark drawn in the top right corner of a provider's render,
// before it is signed; nothing else in the picture changes.

let fal: FakeFal;
let t: TestApp;
let stop: () => Promise<void>;
let original: Buffer;
let dir: string;

beforeAll(async () => {
  original = (await makeMediaFixtures()).video;
  fal = await startFakeFal(original);
  fal.stepMs = 30;
  ({ t, stop } = await startPipeline({ FAL_KEY: fal.key, FAL_BASE_URL: fal.baseUrl, VISIBLE_AI_LABEL: 'true' }));
  dir = await mkdtemp(path.join(tmpdir(), 'reelsmith-label-'));
}, 120_000);
afterAll(async () => {
  await stop();
  await fal.close();
  await rm(dir, { recursive: true, force: true });
});

async function stored(key: string | null | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.ctx.storage.read(key ?? '')) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the visible AI label', () => {
  it("draws the mark in the top right corner of a provider's render, and its credentials still hold", async () => {
    const { cookie } = await payingUser(t, 100_000);
    const record = await startGeneration(t, cookie, { model: 'fal-kling-2.5-turbo' });
    const { row } = await followJob(t, record.id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const labelled = await stored(row?.outputKey);

    const info = await probeBytes(original);
    const size = { width: info.video?.width ?? 0, height: info.video?.height ?? 0 };
    expect((await probeBytes(labelled)).video).toMatchObject(size);
    await writeFile(path.join(dir, 'original.mp4'), original);
    await writeFile(path.join(dir, 'labelled.mp4'), labelled);
    const before = await greyImage(binaries.ffmpeg, path.join(dir, 'original.mp4'), size, { atSeconds: 0.5 });
    const after = await greyImage(binaries.ffmpeg, path.join(dir, 'labelled.mp4'), size, { atSeconds: 0.5 });

    // The mark: 7% of the height, 3% in from the top and the right edge.
    const mark = Math.round(size.height * 0.07);
    const margin = Math.round(size.height * 0.03);
    const corner = { x: size.width - margin - mark, y: margin, width: mark, height: mark };
    expect(contrast(after, corner)).toBeGreaterThan(contrast(before, corner) + 20);
    expect(meanDifference(after, before, corner)).toBeGreaterThan(20);
    // The rest of the picture is the provider's (re-encoded once at a high quality).
    const rest = { x: 0, y: Math.round(size.height / 3), width: size.width, height: Math.round(size.height / 2) };
    expect(meanDifference(after, before, rest)).toBeLessThan(3);

    expect(row?.credentials).toMatchObject({ intact: true, sourceType: 'trainedAlgorithmicMedia' });
  }, 120_000);

  it('draws no mark of its own on a film (issue 47): a film of a title card keeps a plain corner', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const made = await injectJson(t.app, 'POST', '/api/films', {
      cookie,
      body: { resolution: '480p', parts: [{ card: { text: 'The lighthouse', seconds: 1, background: '#1e3a8a' } }] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { row } = await followJob(t, made.json<{ id: string }>().id, 60_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    await writeFile(path.join(dir, 'film.mp4'), await stored(row?.outputKey));
    const size = { width: 854, height: 480 };
    expect((await probeBytes(await stored(row?.outputKey))).video).toMatchObject(size);
    const frame = await greyImage(binaries.ffmpeg, path.join(dir, 'film.mp4'), size, { atSeconds: 0.5 });
    // Where the mark would be (as above), the card's plain colour: no edge to speak of.
    const mark = Math.round(size.height * 0.07);
    const margin = Math.round(size.height * 0.03);
    expect(contrast(frame, { x: size.width - margin - mark, y: margin, width: mark, height: mark })).toBeLessThan(5);
  }, 120_000);
});
