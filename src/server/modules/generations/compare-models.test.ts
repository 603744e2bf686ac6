import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import type { CostEstimate } from '../../../shared/money/pricing';
import { creditLedger, generations, users } from '../../db/schema';

// Compare with another model: the same request on `model` and on `compareModel`, two jobs side by side
// in one group, each at its own model's price, charged together (all or none). The local engine and a
// fal model (its key set; no worker runs, so nothing is sent to fal: the jobs stay queued).

let t: TestApp;
let dir: string;
beforeAll(async () => {
  // Two prices that differ: the local engine per second, the fal model per video.
  dir = mkdtempSync(path.join(tmpdir(), 'compare-'));
  const file = path.join(dir, 'models.json');
  writeFileSync(
    file,
    JSON.stringify({ models: { local: { credits: 0.1, per: 'second' }, 'fal-veo3': { credits: 4 } } }),
  );
  t = await createTestApp({ FAL_KEY: 'k', MODELS_CONFIG: file });
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function userWith(creditsHundredths: number) {
  const user = await createUser(t.db, { creditsHundredths });
  return { user, cookie: await signIn(t.app, user) };
}
const post = (cookie: string, url: string, body: object) => injectJson(t.app, 'POST', url, { cookie, body });
const balanceOf = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths ?? -1;
/** The estimate of a generation request: what prices it (the words and the frame's shape do not). */
async function estimateHundredths(cookie: string, request: object): Promise<number> {
  const { description: _words, aspectRatio: _shape, ...body } = request as Record<string, unknown>;
  const response = await post(cookie, '/api/credits/estimate', body);
  expect(response.statusCode, response.body).toBe(200);
  return Math.round(response.json<{ data: CostEstimate }>().data.totalCost * 100);
}

const REQUEST = { description: 'A lighthouse at dawn', aspectRatio: '9:16', duration: 8, resolution: '720p' } as const;

describe('Compare with another model', () => {
  it('starts one job on each model in one group, each charged its own model’s price', async () => {
    const probe = await userWith(0);
    const local = await estimateHundredths(probe.cookie, { ...REQUEST, model: 'local' });
    const fal = await estimateHundredths(probe.cookie, { ...REQUEST, model: 'fal-veo3' });
    expect([local, fal]).toEqual([80, 400]);
    const { user, cookie } = await userWith(local + fal);
    const response = await post(cookie, '/api/video-generation', {
      ...REQUEST,
      model: 'local',
      compareModel: 'fal-veo3',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<CreatedGenerationRecord>();
    expect(created.group.map((record) => [record.model, record.creditsUsed * 100])).toEqual([
      ['local', local],
      ['fal-veo3', fal],
    ]);
    expect(created.groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.group.every((record) => record.groupId === created.groupId)).toBe(true);
    expect(created.group.map((record) => record.settings?.aspectRatio)).toEqual(['9:16', '9:16']);
    expect(await balanceOf(user.id)).toBe(0);
    const charges = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(charges.map((row) => [row.reference, row.deltaHundredths]).sort()).toEqual(
      created.group.map((record, i) => [`generation:${record.id}`, -[local, fal][i]!]).sort(),
    );
  });

  it('creates neither when the credits cover only one of the two', async () => {
    const probe = await userWith(0);
    const local = await estimateHundredths(probe.cookie, { ...REQUEST, model: 'local' });
    const fal = await estimateHundredths(probe.cookie, { ...REQUEST, model: 'fal-veo3' });
    const { user, cookie } = await userWith(local + fal - 1);
    const response = await post(cookie, '/api/video-generation', {
      ...REQUEST,
      model: 'local',
      compareModel: 'fal-veo3',
    });
    expect(response.statusCode).toBe(402);
    expect(response.json<{ message: string }>().message).toBe(
      `Need ${(local + fal) / 100} credits for 2 videos. You have ${(local + fal - 1) / 100}.`,
    );
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(local + fal - 1);
  });

  it.each([
    [
      { model: 'local', compareModel: 'local' },
      'compare_same_model',
      'Compare with another model needs a second model: Local preview engine is already the first one.',
    ],
    [
      { model: 'local', compareModel: 'no-such-model' },
      'unknown_model',
      'This server has no model called "no-such-model" to compare with. Choose one of the models the generator lists.',
    ],
    [{ model: 'local', compareModel: 'veo3' }, 'model_unavailable', null],
    [
      { model: 'local', compareModel: 'fal-veo3', aspectRatio: '1:1' },
      'aspect_ratio_not_supported',
      'Veo 3 (fal.ai) makes 16:9, 9:16 videos, not 1:1.',
    ],
    [
      { model: 'local', compareModel: 'fal-veo3', variations: 2 },
      'compare_with_variations',
      'Compare with another model makes one video on each of two models, so it cannot be combined with variations. Choose 1 variation, or no second model.',
    ],
  ])('%j is refused with a 400 sentence, charging nothing', async (body, code, message) => {
    const { user, cookie } = await userWith(100_000);
    const response = await post(cookie, '/api/video-generation', { ...REQUEST, ...body });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ code: string }>().code).toBe(code);
    if (message) expect(response.json<{ message: string }>().message).toBe(message);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(100_000);
  });
});
