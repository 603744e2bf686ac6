import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { uploadFile } from '../../../../tests/support/factories';
import { payingUser, startPipeline } from '../../../../tests/support/pipeline';
import type { Character } from '../../../shared/characters';
import { CONSENT_REQUIRED_CODE } from '../../../shared/moderation';
import type { ModelInfo } from '../../../shared/models';
import type { Storyboard } from '../../../shared/storyboards';
import { generations, uploads } from '../../db/schema';

// Characters (issue 47): a library entry made from uploads (consent for a real person), its pictures
// kept past the uploads, and its name and description in the prompt of a model with no reference
// images (each provider's field: src/server/jobs/character-providers.test.ts).

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures', name));
const ASTRONAUT = fixture('astronaut.png');
const CAT = fixture('chelsea.png');
const COFFEE = fixture('coffee.png');

let t: TestApp;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ t, stop } = await startPipeline({}));
}, 120_000);
afterAll(async () => {
  await stop();
});

/** The bytes one of our signed media links serves. */
async function bytesAt(link: string): Promise<Buffer> {
  const response = await t.app.inject({ method: 'GET', url: link });
  expect(response.statusCode, link).toBe(200);
  return response.rawPayload;
}

async function addCharacter(cookie: string, body: object) {
  return injectJson(t.app, 'POST', '/api/characters', { cookie, body });
}

describe('a character library', () => {
  it('keeps pictures copied from uploads, asks consent for a real person, and renames and deletes', async () => {
    const { user, cookie } = await payingUser(t);
    const [cat, coffee, person] = [
      await uploadFile(t.app, cookie, CAT),
      await uploadFile(t.app, cookie, COFFEE),
      await uploadFile(t.app, cookie, ASTRONAUT),
    ];
    const refused = await addCharacter(cookie, { name: 'Mira', imageFiles: [cat, person] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json<{ code: string }>().code).toBe(CONSENT_REQUIRED_CODE);
    const tooMany = await addCharacter(cookie, { name: 'Mira', imageFiles: [cat, coffee, person, cat] });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toContain('must have at most 3 pictures');

    const made = await addCharacter(cookie, {
      name: 'Captain Mira',
      description: 'A lighthouse keeper in a yellow raincoat',
      imageFiles: [person, cat],
      consentToLikeness: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const character = made.json<Character>();
    expect(character).toMatchObject({ name: 'Captain Mira', showsPeople: true });
    // Its pictures are its own copies: the uploads can go, the pictures stay.
    for (const upload of await t.db.select().from(uploads).where(eq(uploads.userId, user.id)))
      await t.ctx.storage.delete(upload.objectKey);
    const served = await Promise.all(character.images.map((image) => bytesAt(image.url)));
    expect(served.map((bytes, i) => bytes.equals([ASTRONAUT, CAT][i] ?? Buffer.alloc(0)))).toEqual([true, true]);

    const renamed = await injectJson(t.app, 'PUT', `/api/characters/${character.id}`, {
      cookie,
      body: { name: 'Mira', description: 'The keeper' },
    });
    expect(renamed.json<Character>()).toMatchObject({ name: 'Mira', description: 'The keeper' });
    const other = await payingUser(t);
    expect(
      (await injectJson(t.app, 'DELETE', `/api/characters/${character.id}`, { cookie: other.cookie })).statusCode,
    ).toBe(404);
    const listed = (await injectJson(t.app, 'GET', '/api/characters', { cookie })).json<{ characters: Character[] }>();
    expect(listed.characters.map((c) => c.id)).toEqual([character.id]);
    expect((await injectJson(t.app, 'DELETE', `/api/characters/${character.id}`, { cookie })).statusCode).toBe(200);
    for (const image of character.images) {
      const gone = await t.app.inject({ method: 'GET', url: image.url });
      expect(gone.statusCode).toBe(404);
    }
  });

  it('says in GET /api/models how each model keeps a character', async () => {
    const { cookie } = await payingUser(t);
    const { models } = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>();
    for (const model of models)
      expect(model.character, model.id).toBe(model.referenceImages > 0 ? 'references' : 'description');
    expect(models.find((m) => m.id === 'fal-veo3.1')?.character).toBe('references');
    expect(models.find((m) => m.id === 'local')?.character).toBe('description');
  });
});

describe('a character in a video', () => {
  // Each provider's field: src/server/jobs/character-providers.test.ts.
  it('goes into the prompt of a model with no reference images, in a storyboard’s shot too', async () => {
    const { cookie } = await payingUser(t, 100_000);
    const character = (
      await addCharacter(cookie, {
        name: 'Whiskers',
        description: 'A grey tabby cat with a white chest',
        imageFiles: [await uploadFile(t.app, cookie, CAT)],
      })
    ).json<Character>();
    // In a storyboard's shot on the local engine.
    const shotId = randomUUID();
    const board = (
      await injectJson(t.app, 'POST', '/api/storyboards', {
        cookie,
        body: {
          shots: [{ id: shotId, description: 'The cat yawns', model: 'local', duration: 2, characterId: character.id }],
        },
      })
    ).json<Storyboard>();
    const take = await injectJson(t.app, 'POST', `/api/storyboards/${board.id}/shots/${shotId}/takes`, {
      cookie,
      body: {},
    });
    expect(take.statusCode, take.body).toBe(201);
    const [shot] = await t.db.select().from(generations).where(eq(generations.id, take.json<{ id: string }>().id));
    expect(shot?.prompt).toBe('The cat yawns\n\nWhiskers: A grey tabby cat with a white chest');
    // Someone else's character: the same 404 as none.
    const other = await payingUser(t);
    const stranger = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: other.cookie,
      body: { prompt: 'A cat', model: 'local', duration: 2, characterId: character.id },
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json<{ code: string }>().code).toBe('character_not_found');
  });
});
