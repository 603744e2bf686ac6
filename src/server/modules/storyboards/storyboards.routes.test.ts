import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { modelsConfigFile, PRICED_MODELS } from '../../../../tests/support/models-config';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import type { ModelInfo } from '../../../shared/models';
import { toCredits } from '../../../shared/money/price-list';
import { type ShotInput, shotPriceHundredths, type Storyboard } from '../../../shared/storyboards';
import { generations, storyboards, users } from '../../db/schema';

// Boards through the API with no worker running (takes stay queued): what a board keeps across a
// reload, who may touch it, and the price shown before the click against the charge it makes.

let t: TestApp;
let config: ReturnType<typeof modelsConfigFile>;
let models: ModelInfo[];

beforeAll(async () => {
  config = modelsConfigFile(PRICED_MODELS);
  t = await createTestApp({ MODELS_CONFIG: config.file, FAL_KEY: 'k' });
  const cookie = await signIn(t.app, await createUser(t.db));
  models = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;
}, 180_000);
afterAll(async () => {
  await t?.close();
  config.remove();
});

async function member(creditsHundredths = 100_000) {
  const user = await createUser(t.db, { creditsHundredths });
  return { user, cookie: await signIn(t.app, user) };
}

const shot = (fields: Partial<ShotInput> = {}): ShotInput => ({
  id: randomUUID(),
  description: 'A lighthouse at dusk',
  model: 'local',
  duration: 4,
  ...fields,
});

async function makeBoard(cookie: string, body: object): Promise<Storyboard> {
  const made = await injectJson(t.app, 'POST', '/api/storyboards', { cookie, body });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<Storyboard>();
}
const readBoard = async (cookie: string, id: string) => {
  const read = await injectJson(t.app, 'GET', `/api/storyboards/${id}`, { cookie });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<Storyboard>();
};
const put = (cookie: string, id: string, body: object) =>
  injectJson(t.app, 'PUT', `/api/storyboards/${id}`, { cookie, body });
const balanceOf = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths ?? 0;

describe('a storyboard', () => {
  it('keeps its shots in the order of the last edit across a reload, and refuses an edit made on an older version', async () => {
    const { cookie } = await member();
    const [a, b, c] = [shot({ description: 'One' }), shot({ description: 'Two' }), shot({ description: 'Three' })];
    const board = await makeBoard(cookie, { name: 'Three shots', shots: [a, b, c] });
    expect(board).toMatchObject({ name: 'Three shots', version: 1, aspectRatio: '16:9', titleCard: null });
    expect(board.shots.map((s) => [s.description, s.state, s.takes.length])).toEqual([
      ['One', 'missing', 0],
      ['Two', 'missing', 0],
      ['Three', 'missing', 0],
    ]);

    // The third shot moved to the front (as the keyboard or a drag sends it: the whole board, in its new order).
    const moved = await put(cookie, board.id, { name: 'Three shots', shots: [c, a, b], version: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Storyboard>().version).toBe(2);
    const reloaded = await readBoard(cookie, board.id);
    expect(reloaded.shots.map((s) => s.description)).toEqual(['Three', 'One', 'Two']);

    // Another window still on version 1: refused with a sentence, and the order stays.
    const stale = await put(cookie, board.id, { name: 'Three shots', shots: [b, a, c], version: 1 });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json<{ code: string; message: string }>()).toMatchObject({
      code: 'storyboard_changed',
      message:
        'This storyboard was changed in another window meanwhile. Reload it to see the changes, then edit again.',
    });
    expect((await readBoard(cookie, board.id)).shots.map((s) => s.description)).toEqual(['Three', 'One', 'Two']);

    // Listed, the latest edited first.
    const list = (await injectJson(t.app, 'GET', '/api/storyboards', { cookie })).json<{
      storyboards: { id: string; shots: number; readyShots: number }[];
    }>();
    expect(list.storyboards[0]).toMatchObject({ id: board.id, shots: 3, readyShots: 0 });
  });

  it('is its owner’s alone, takes only its own shots’ takes as chosen, and refuses a repeated shot id', async () => {
    const owner = await member();
    const other = await member();
    const first = shot();
    const board = await makeBoard(owner.cookie, { shots: [first] });
    expect(board.name).toBe('Untitled storyboard');
    for (const [method, url] of [
      ['GET', `/api/storyboards/${board.id}`],
      ['DELETE', `/api/storyboards/${board.id}`],
      ['POST', `/api/storyboards/${board.id}/export`],
    ] as const) {
      const answer = await injectJson(t.app, method, url, { cookie: other.cookie });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json<{ code: string }>().code).toBe('storyboard_not_found');
    }
    const taken = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/shots/${first.id}/takes`, {
      cookie: other.cookie,
      body: {},
    });
    expect(taken.statusCode).toBe(404);
    expect(await put(other.cookie, board.id, { shots: [] }).then((r) => r.statusCode)).toBe(404);
    expect((await readBoard(owner.cookie, board.id)).shots).toHaveLength(1);

    // Someone else's video as a chosen take, or a take of another shot: a sentence, nothing written.
    const theirs = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: other.cookie,
      body: { description: 'A fox', model: 'local', duration: 4 },
    });
    const refused = await put(owner.cookie, board.id, {
      shots: [{ ...first, chosenTakeId: theirs.json<{ id: string }>().id }],
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ code: string; message: string }>()).toMatchObject({
      code: 'invalid_chosen_take',
      message: 'Shot 1’s chosen take is not a take of that shot.',
    });
    const repeated = await put(owner.cookie, board.id, { shots: [first, first] });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json<{ message: string }>().message).toContain('must not repeat a shot id');
    expect((await readBoard(owner.cookie, board.id)).version).toBe(1);

    // Deleting it keeps its takes among the owner's videos.
    const take = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/shots/${first.id}/takes`, {
      cookie: owner.cookie,
      body: {},
    });
    expect(take.statusCode, take.body).toBe(201);
    const takeId = take.json<{ id: string }>().id;
    expect(
      (await injectJson(t.app, 'DELETE', `/api/storyboards/${board.id}`, { cookie: owner.cookie })).statusCode,
    ).toBe(200);
    expect(await t.db.select().from(storyboards).where(eq(storyboards.id, board.id))).toEqual([]);
    const [kept] = await t.db.select().from(generations).where(eq(generations.id, takeId));
    expect(kept).toMatchObject({ storyboardId: null, shotId: first.id });
  });

  it('refuses a render it cannot make before any charge, with the shot named', async () => {
    const { user, cookie } = await member();
    const empty = shot({ description: '   ' });
    const follows = shot({ fromPrevious: true });
    const board = await makeBoard(cookie, { shots: [follows, empty] });
    const before = await balanceOf(user.id);
    const render = (id: string) =>
      injectJson(t.app, 'POST', `/api/storyboards/${board.id}/shots/${id}/takes`, { cookie, body: {} });
    const refusals: [string, number, string, string][] = [
      [
        follows.id,
        400,
        'no_previous_shot',
        'The first shot has no shot before it to start from. Turn off "Start from the previous shot".',
      ],
      [empty.id, 400, 'prompt_required', 'Shot 2 has no description yet. Say what happens in it, then render it.'],
      [randomUUID(), 404, 'shot_not_found', 'This shot is not on the storyboard. It may have been deleted.'],
      ['not-a-uuid', 404, 'shot_not_found', 'This shot is not on the storyboard. It may have been deleted.'],
    ];
    for (const [id, status, code, message] of refusals) {
      const answer = await render(id);
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.json<{ code: string; message: string }>()).toMatchObject({ code, message });
    }
    const exported = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/export`, { cookie });
    expect(exported.statusCode).toBe(409);
    expect(exported.json<{ message: string }>().message).toBe(
      'Shot 1 has no finished take yet. Render it (or delete the shot), then export.',
    );
    expect(await balanceOf(user.id)).toBe(before);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toEqual([]);
  });
});

describe('the price shown before the click', () => {
  // Each board: its shots, as the board editor prices them with the catalogue (the same function it shows).
  const BOARDS: { name: string; shots: Partial<ShotInput>[] }[] = [
    { name: 'one local shot', shots: [{ model: 'local', duration: 4 }] },
    {
      name: 'local per second at two resolutions, one with sound',
      shots: [
        { model: 'local', duration: 2, resolution: '480p' },
        { model: 'local', duration: 6, resolution: '1080p', hasAudio: true },
        { model: 'local', duration: 4, aspectRatio: '9:16' },
      ],
    },
    {
      name: 'three models, per video and per second',
      shots: [
        { model: 'fal-veo3', duration: 8, resolution: '1080p' },
        { model: 'fal-kling-2.1', duration: 5 },
        { model: 'local', duration: 4, hasAudio: true },
      ],
    },
    { name: 'the default model', shots: [{ model: null, duration: 4 }, { duration: 8 }] },
  ];

  for (const { name, shots } of BOARDS) {
    it(`equals the charge: ${name}`, async () => {
      const { user, cookie } = await member();
      const board = await makeBoard(cookie, { shots: shots.map((fields) => shot(fields)) });
      // What the board editor shows: the shared price of each shot with the catalogue's model.
      const defaultModel = models.find((model) => model.isDefault);
      const shown = board.shots.reduce((sum, s) => {
        const model = models.find((m) => m.id === s.model) ?? defaultModel;
        if (!model) throw new Error(`no model ${s.model ?? 'default'}`);
        return sum + shotPriceHundredths(model, s);
      }, 0);
      expect(board.creditsToRender).toBe(toCredits(shown));
      expect(shown).toBeGreaterThan(0);

      const before = await balanceOf(user.id);
      const rendered = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/render`, { cookie, body: {} });
      expect(rendered.statusCode, rendered.body).toBe(201);
      const { started, waiting } = rendered.json<{
        started: { shotId: string; take: CreatedGenerationRecord }[];
        waiting: unknown[];
      }>();
      expect(waiting).toEqual([]);
      expect(started.map((s) => s.shotId)).toEqual(board.shots.map((s) => s.id));
      expect(before - (await balanceOf(user.id))).toBe(shown);
      expect(toCredits(Math.round(started.reduce((sum, s) => sum + s.take.creditsUsed * 100, 0)))).toBe(
        toCredits(shown),
      );
      // Rendering now, so nothing is left to pay for.
      const after = await readBoard(cookie, board.id);
      expect(after.shots.map((s) => s.state)).toEqual(board.shots.map(() => 'rendering'));
      expect(after.creditsToRender).toBe(0);
    });
  }
});
