import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { uploadFile } from '../../../../tests/support/factories';
import { integratedLoudness, makeMediaFixtures, probeStreams } from '../../../../tests/support/media';
import { followJob, payingUser, startPipeline } from '../../../../tests/support/pipeline';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import type { ShotInput, Storyboard } from '../../../shared/storyboards';
import { generations, users } from '../../db/schema';
import { FILM_LOUDNESS_LUFS } from '../../media/film-assembly';

// A storyboard from its shots to its film, on the local engine with a worker: three shots (one 9:16
// among 16:9 ones, one starting from the previous shot's last frame), rendered, trimmed and joined
// with two crossfades, a title card and a music bed; then one shot rendered again.

let t: TestApp;
let stop: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  ({ t, stop } = await startPipeline({}));
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-storyboard-'));
}, 180_000);
afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

const balanceOf = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths ?? 0;

async function readBoard(cookie: string, id: string): Promise<Storyboard> {
  const read = await injectJson(t.app, 'GET', `/api/storyboards/${id}`, { cookie });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<Storyboard>();
}

/** Follows each take to its end: all finished. */
async function finish(ids: string[]) {
  for (const id of ids) {
    const { row } = await followJob(t, id, 180_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  }
}

describe('a storyboard made into a film', () => {
  it('renders its shots, joins them with two crossfades, a card and a bed, and renders one shot again', async () => {
    const { user, cookie } = await payingUser(t, 10_000);
    const bedFile = await uploadFile(t.app, cookie, (await makeMediaFixtures()).audio);
    const common: Partial<ShotInput> = { model: 'local', duration: 2, resolution: '480p', transition: 'crossfade' };
    const shots: ShotInput[] = [
      { ...common, id: randomUUID(), description: 'A lighthouse at dusk', trimStart: 0.2, trimEnd: 1.8 },
      { ...common, id: randomUUID(), description: 'The keeper climbs the stairs', aspectRatio: '9:16' },
      { ...common, id: randomUUID(), description: 'The lamp turns', fromPrevious: true, trimEnd: 1.6 },
    ];
    const made = await injectJson(t.app, 'POST', '/api/storyboards', {
      cookie,
      body: {
        name: 'The lighthouse',
        shots,
        aspectRatio: '16:9',
        resolution: '480p',
        titleCard: { text: 'The Lighthouse', seconds: 1.5 },
        transitionSeconds: 0.4,
        bedFile,
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const board = made.json<Storyboard>();
    const price = board.creditsToRender;
    const before = await balanceOf(user.id);

    // The third shot waits for the second one's take: it starts from its last frame.
    const first = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/render`, { cookie, body: {} });
    expect(first.statusCode, first.body).toBe(201);
    const started = first.json<{ started: { shotId: string; take: { id: string } }[]; waiting: object[] }>();
    expect(started.started.map((s) => s.shotId)).toEqual([shots[0]?.id, shots[1]?.id]);
    expect(started.waiting).toEqual([
      {
        shotId: shots[2]?.id,
        reason: 'Shot 3 starts from the last frame of Shot 2: render it once Shot 2 has a finished take.',
      },
    ]);
    await finish(started.started.map((s) => s.take.id));
    const second = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/render`, { cookie, body: {} });
    expect(second.statusCode, second.body).toBe(201);
    const third = second.json<{ started: { shotId: string; take: { id: string } }[] }>().started;
    expect(third.map((s) => s.shotId)).toEqual([shots[2]?.id]);
    const thirdId = third[0]?.take.id ?? '';
    await finish([thirdId]);
    // It started from a picture: the last frame of shot 2's take, stored as an image upload of the user's.
    const [thirdRow] = await t.db.select().from(generations).where(eq(generations.id, thirdId));
    expect(thirdRow?.inputs.image?.contentType).toBe('image/png');

    // Every shot ready, charged its price (the sum shown before the click), nothing left to pay for.
    const ready = await readBoard(cookie, board.id);
    expect(ready.shots.map((s) => s.state)).toEqual(['ready', 'ready', 'ready']);
    expect(ready.creditsToRender).toBe(0);
    expect((before - (await balanceOf(user.id))) / 100).toBe(price);
    const lengths = await Promise.all(
      ready.shots.map(async (s) => {
        const [row] = await t.db
          .select()
          .from(generations)
          .where(eq(generations.id, s.usedTakeId ?? ''));
        return row?.outputDuration ?? 0;
      }),
    );

    // The film: the card, then the three takes trimmed, crossfaded, with the bed under them.
    const balance = await balanceOf(user.id);
    const exported = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/export`, { cookie });
    expect(exported.statusCode, exported.body).toBe(201);
    const film = exported.json<CreatedGenerationRecord>();
    expect(film).toMatchObject({ model: 'film', prompt: 'The lighthouse', creditsUsed: 0 });
    const { row } = await followJob(t, film.id, 180_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    expect(await balanceOf(user.id)).toBe(balance);
    const file = path.join(dir, 'film.mp4');
    await pipeline(await t.ctx.storage.read(row?.outputKey ?? ''), createWriteStream(file));
    const probed = await probeStreams(file);
    const video = probed.streams.filter((stream) => stream.codec_type === 'video');
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({ width: 854, height: 480, avg_frame_rate: '24/1' });
    expect(probed.streams.filter((stream) => stream.codec_type === 'audio')).toHaveLength(1);
    const expected = 1.5 + (1.8 - 0.2) + (lengths[1] ?? 0) + 1.6 - 2 * 0.4;
    expect(Math.abs(Number(probed.format.duration) - expected)).toBeLessThan(0.2);
    expect(Math.abs((await integratedLoudness(file)) - FILM_LOUDNESS_LUFS)).toBeLessThanOrEqual(1);
    expect((await readBoard(cookie, board.id)).films.map((f) => f.id)).toEqual([film.id]);

    // The middle shot again: that shot's price alone, the other shots untouched, and the next film uses the new take.
    const oldTakes = ready.shots.map((s) => s.usedTakeId);
    const again = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/shots/${shots[1]?.id}/takes`, {
      cookie,
      body: {},
    });
    expect(again.statusCode, again.body).toBe(201);
    const retake = again.json<CreatedGenerationRecord>();
    // The three shots cost the same (one model, length and size): one of them is a third of the board's price.
    expect(balance - (await balanceOf(user.id))).toBe(Math.round((price * 100) / 3));
    expect(retake.creditsUsed).toBe(price / 3);
    await finish([retake.id]);
    const after = await readBoard(cookie, board.id);
    expect(after.shots.map((s) => s.usedTakeId)).toEqual([oldTakes[0], retake.id, oldTakes[2]]);
    expect(after.shots[1]?.takes.map((take) => take.id)).toEqual([retake.id, oldTakes[1]]);
    const next = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/export`, { cookie });
    expect(next.statusCode, next.body).toBe(201);
    const [nextRow] = await t.db.select().from(generations).where(eq(generations.id, next.json<{ id: string }>().id));
    const usedVideos = nextRow?.film?.parts.flatMap((part) => (part.kind === 'shot' ? [part.videoId] : []));
    expect(usedVideos).toEqual([oldTakes[0], retake.id, oldTakes[2]]);
    // Its parts were all this film was for: deleted as its owner would, rather than joined (six
    // seconds of FFmpeg); the worker stops a job whose row is gone at its next progress write.
    const deleted = await injectJson(t.app, 'DELETE', `/api/video-generation/${nextRow?.id ?? ''}`, { cookie });
    expect(deleted.statusCode, deleted.body).toBe(200);
  }, 600_000);
});
