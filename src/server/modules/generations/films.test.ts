import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { uploadFile } from '../../../../tests/support/factories';
import { integratedLoudness, makeMediaFixtures, probeStreams } from '../../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import { FILM_MODEL_ID } from '../../../shared/films';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import { generations, users } from '../../db/schema';
import { FILM_LOUDNESS_LUFS } from '../../media/film-assembly';
import { ObjectNotFoundError } from '../../storage/storage';

// Films through the API and the worker: the user's finished local videos and a title card joined by
// POST /api/films into one new video, free of charge, with an uploaded track under it.

let t: TestApp;
let stop: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  ({ t, stop } = await startPipeline({}));
  dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-films-'));
}, 180_000);
afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A finished local video of this user's (480p, 2 s): its id and measured length. */
async function finished(cookie: string, body: object): Promise<{ id: string; seconds: number }> {
  const made = await startGeneration(t, cookie, { model: 'local', duration: 2, resolution: '480p', ...body });
  const { row } = await followJob(t, made.id, 120_000);
  expect(row?.status, row?.errorMessage ?? '').toBe('completed');
  return { id: made.id, seconds: row?.outputDuration ?? 0 };
}

const postFilm = (cookie: string, body: object) => injectJson(t.app, 'POST', '/api/films', { cookie, body });

/** What ffprobe and FFmpeg's EBU R128 meter say of a stored video. */
async function examine(key: string) {
  const file = path.join(dir, `${path.basename(key)}.mp4`);
  await pipeline(await t.ctx.storage.read(key), createWriteStream(file));
  const probed = await probeStreams(file);
  const loudness = await integratedLoudness(file);
  return { probed, loudness, seconds: Number(probed.format.duration) };
}

/** The copies of takes and beds a user's films hold in storage now (the test app stores files under its data folder). */
function filmCopiesOf(userId: string): string[] {
  const folder = path.join(t.dataDir, 'objects', 'outputs', userId);
  // The user's finished videos are there too: a folder that is missing means a wrong path, not no copies.
  return readdirSync(folder).filter((name) => name.startsWith('film-part-'));
}

/** Whether storage still holds this key. */
async function stored(key: string): Promise<boolean> {
  try {
    (await t.ctx.storage.read(key)).destroy();
    return true;
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return false;
    throw error;
  }
}

/**
 * The lighthouse film's user and three takes, made on first use: the refusals test also needs a
 * finished video of another user's, and names one of these rather than rendering one more.
 */
let lighthouse: ReturnType<typeof makeLighthouse> | undefined;
async function makeLighthouse() {
  const { user, cookie } = await payingUser(t, 5000);
  const [wide, tall, quiet] = await Promise.all([
    finished(cookie, { prompt: 'A lighthouse at dusk' }),
    finished(cookie, { prompt: 'The keeper climbs the stairs', aspectRatio: '9:16' }),
    finished(cookie, { prompt: 'The lamp turns', hasAudio: false }),
  ]);
  return { user, cookie, wide, tall, quiet };
}
const lighthouseTakes = () => (lighthouse ??= makeLighthouse());

describe('a film of finished videos', () => {
  it('joins a card and three takes (one 9:16) with two crossfades and a music bed, free, at the loudness target', async () => {
    const { user, cookie, wide, tall, quiet } = await lighthouseTakes();
    const bedFile = await uploadFile(t.app, cookie, (await makeMediaFixtures()).audio);
    const [before] = await t.db.select().from(users).where(eq(users.id, user.id));

    const made = await postFilm(cookie, {
      title: 'The lighthouse',
      aspectRatio: '16:9',
      resolution: '480p',
      parts: [
        { card: { text: 'The Lighthouse', seconds: 1.5 } },
        { video: wide.id, start: 0.2, end: 1.8, caption: 'Dusk' },
        { video: tall.id },
        { video: quiet.id, end: 1.6 },
      ],
      transitions: ['cut', 'crossfade', 'crossfade'],
      transitionSeconds: 0.4,
      bedFile,
    });
    expect(made.statusCode, made.body).toBe(201);
    const record = made.json<CreatedGenerationRecord>();
    expect(record).toMatchObject({ model: FILM_MODEL_ID, prompt: 'The lighthouse', creditsUsed: 0, status: 'pending' });

    const { row } = await followJob(t, record.id, 180_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const expected = 1.5 + 1.6 + tall.seconds + 1.6 - 2 * 0.4;
    const film = await examine(row?.outputKey ?? '');
    const video = film.probed.streams.filter((stream) => stream.codec_type === 'video');
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({ width: 854, height: 480, avg_frame_rate: '24/1' });
    expect(film.probed.streams.filter((stream) => stream.codec_type === 'audio')).toHaveLength(1);
    expect(Math.abs(film.seconds - expected)).toBeLessThan(0.2);
    expect(Math.abs(film.loudness - FILM_LOUDNESS_LUFS)).toBeLessThanOrEqual(1);

    // Its Content Credentials name each shot as an ingredient, with the credentials that shot was signed with.
    const ingredients = row?.credentials?.ingredients.map((i) => [i.title, i.relationship, i.hasCredentials]);
    expect(ingredients?.sort()).toEqual(
      [wide, tall, quiet].map((shot) => [`${shot.id}.mp4`, 'componentOf', true]).sort(),
    );

    // Free of charge, and the copies of its takes and bed are gone once it is stored.
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.creditsHundredths).toBe(before?.creditsHundredths);
    const copies = [
      ...(row?.film?.parts.flatMap((part) => (part.kind === 'shot' ? [part.key] : [])) ?? []),
      row?.film?.bedKey ?? '',
    ];
    expect(copies).toHaveLength(4);
    for (const key of copies) expect(await stored(key), key).toBe(false);
    expect(filmCopiesOf(user.id)).toEqual([]);
    // It is a video like any other: listed, with its link playing.
    const list = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<
      { id: string; outputVideoUrl: string | null }[]
    >();
    const listed = list.find((item) => item.id === record.id);
    expect((await t.app.inject({ method: 'GET', url: listed?.outputVideoUrl ?? '/none' })).statusCode).toBe(200);
    // No model made it, so none can extend it: a sentence, before anything is charged.
    const extended = await injectJson(t.app, 'POST', `/api/video-generation/${record.id}/extend`, { cookie, body: {} });
    expect(extended.statusCode, extended.body).toBe(400);
    expect(extended.json<{ message: string }>().message).toMatch(/^A film is joined from its shots by this server/);
  }, 300_000);

  it('refuses what cannot be made with a sentence, leaving no record and no copy behind', async () => {
    const { user, cookie } = await payingUser(t, 5000);
    const mine = await finished(cookie, { prompt: 'A red kite over a field' });
    const theirs = (await lighthouseTakes()).wide;
    const picture = await uploadFile(
      t.app,
      cookie,
      readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/astronaut.png')),
    );
    const count = async () => (await t.db.select().from(generations).where(eq(generations.userId, user.id))).length;
    const rows = await count();

    const refusals: [object, number, string, RegExp][] = [
      [{ parts: [{ video: theirs.id }] }, 404, 'generation_not_found', /^Part 1 names no video of yours/],
      [{ parts: [{ video: mine.id, end: 9 }] }, 400, 'trim_outside_video', /^Part 1 ends at 9 s, but its video lasts/],
      [
        {
          parts: [{ video: mine.id }, { video: mine.id, start: 0, end: 0.5 }, { video: mine.id }],
          transitions: ['crossfade', 'crossfade'],
        },
        400,
        'invalid_film',
        /^Part 2 lasts 0.5 s, too short for its 0.5 s transitions\.$/,
      ],
      [
        { parts: [{ video: mine.id }, { video: mine.id }], transitions: [] },
        400,
        'invalid_film',
        /^2 parts need 1 transitions, not 0\.$/,
      ],
      [
        { parts: [{ video: mine.id }], bedFile: picture },
        400,
        'wrong_input_kind',
        /^bedFile must be a music or voice recording/,
      ],
      [
        { parts: [{ video: mine.id, crossfade: 1 }] },
        400,
        'unknown_fields',
        /"crossfade" is not a field this request takes/,
      ],
      [{ parts: [] }, 400, 'validation_failed', /parts/],
    ];
    for (const [body, status, code, message] of refusals) {
      const refused = await postFilm(cookie, body);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(refused.json<{ code: string }>().code).toBe(code);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    expect(await count()).toBe(rows);
    expect(filmCopiesOf(user.id)).toEqual([]);
  }, 300_000);
});
