import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, type TestApp } from '../../../../tests/support/app';
import { clipOfPicture } from '../../../../tests/support/media';
import { followJob, payingUser, startGeneration, startPipeline } from '../../../../tests/support/pipeline';
import { BLOCKED_OUTPUT_MESSAGE, CONTENT_POLICY_CODE, POLICY_RULES } from '../../../shared/moderation';
import { classifyPicture } from '../../ai/object-detector';
import { creditLedger, uploads, users } from '../../db/schema';

// Pictures and finished videos screened by a real image classifier (NSFWJS's MobileNetV2 on
// TensorFlow.js's WebAssembly backend; issue 43). The shared photographs are ordinary pictures; the
// blocking path is shown with a threshold set to block them, as an operator's setting would.

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, `../../../../tests/fixtures/${name}`));

describe('the image classifier', () => {
  it('scores the shared photographs as far from explicit', async () => {
    for (const name of ['astronaut.png', 'chelsea.png', 'coffee.png']) {
      const { scores, note } = await classifyPicture(fixture(name));
      expect(note, name).toBeNull();
      expect((scores?.porn ?? 1) + (scores?.hentai ?? 1), name).toBeLessThan(0.05);
      const total = Object.values(scores ?? {}).reduce((sum, value) => sum + value, 0);
      expect(total, name).toBeCloseTo(1, 3);
    }
  });
});

/** Upload through the upload link as the browser does. */
async function put(t: TestApp, cookie: string, body: Buffer) {
  const target = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
  const { uploadURL } = target.json<{ uploadURL: string }>();
  return t.app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: body,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

for (const refund of [true, false]) {
  describe(`with a threshold set to block everything (REFUND_BLOCKED_GENERATIONS=${refund})`, () => {
    let t: TestApp;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ t, stop } = await startPipeline({
        MODERATION_IMAGE_BLOCK_SCORE: '0',
        REFUND_BLOCKED_GENERATIONS: String(refund),
      }));
    }, 120_000);
    afterAll(async () => {
      await stop();
    });

    it('refuses an uploaded picture with the rule, and keeps nothing of it', async () => {
      if (!refund) return; // once is enough
      const { user, cookie } = await payingUser(t, 1000);
      const refused = await put(t, cookie, fixture('coffee.png'));
      expect(refused.statusCode).toBe(422);
      expect(refused.json<{ code: string; message: string }>()).toMatchObject({
        code: CONTENT_POLICY_CODE,
        message: expect.stringContaining(POLICY_RULES.sexual),
      });
      // A video's frames, the same.
      const clip = await clipOfPicture(path.resolve(import.meta.dirname, '../../../../tests/fixtures/coffee.png'), 2);
      const refusedVideo = await put(t, cookie, clip);
      expect(refusedVideo.statusCode).toBe(422);
      expect(refusedVideo.json<{ code: string }>().code).toBe(CONTENT_POLICY_CODE);
      expect(await t.db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([]);
    });

    it(`never stores or serves a blocked video, and ${refund ? 'gives its charge back' : 'keeps its charge'}`, async () => {
      const { user, cookie } = await payingUser(t, 1000);
      const record = await startGeneration(t, cookie, { model: 'local', resolution: '480p', duration: 2 });
      const { row } = await followJob(t, record.id, 120_000);
      expect(row?.status).toBe('failed');
      expect(row?.errorMessage).toContain(BLOCKED_OUTPUT_MESSAGE);
      expect(row?.outputKey).toBeNull();
      expect(row?.credentials).toBeNull();
      const list = await injectJson(t.app, 'GET', '/api/video-generation', { cookie });
      expect(
        list.json<{ id: string; outputVideoUrl: string | null }[]>().find((v) => v.id === record.id)?.outputVideoUrl,
      ).toBeNull();
      // Nothing of it was stored under the owner's outputs (neither the video nor a poster).
      const outputs = await readdir(path.join(t.dataDir, 'objects', 'outputs', user.id)).catch(() => []);
      expect(outputs).toEqual([]);
      const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
      const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
      if (refund) {
        expect(after?.creditsHundredths).toBe(1000);
        expect(ledger).toHaveLength(2);
      } else {
        expect(after?.creditsHundredths).toBe(1000 - (row?.creditsUsedHundredths ?? 0));
        expect(ledger).toHaveLength(1);
      }
    }, 150_000);
  });
}
