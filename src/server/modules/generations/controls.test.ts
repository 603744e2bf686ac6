import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { modelsConfigFile, PRICED_MODELS } from '../../../../tests/support/models-config';
import type { GenerationRecord } from '../../../shared/generations';
import { CAMERA_MOVES, type ModelInfo, renderedShape } from '../../../shared/models';
import { toCredits } from '../../../shared/money/credits';
import { type CostEstimate, modelPriceOf, priceHundredths } from '../../../shared/money/pricing';
import { creditLedger, generations, users } from '../../db/schema';

// The shape, length and camera controls: what GET /api/models says each model takes, the 400 for what
// it cannot take, and the price of every shape it renders (the estimate, the generator's figure and
// the charge agree). No worker runs here: jobs stay queued, so nothing is sent to a provider.

let config: ReturnType<typeof modelsConfigFile>;
let t: TestApp;
let models: ModelInfo[];

const MODELS = {
  ...PRICED_MODELS,
  // Narrowed by the operator.
  'fal-veo3-fast': { durations: [8], resolutions: ['720p'], cameraMoves: ['static', 'dolly-in'] },
};

beforeAll(async () => {
  config = modelsConfigFile(MODELS);
  t = await createTestApp({
    MODELS_CONFIG: config.file,
    FAL_KEY: 'k',
    REPLICATE_API_TOKEN: 'r',
    GEMINI_API_KEY: 'g',
    KLING_ACCESS_KEY: 'a',
    KLING_SECRET_KEY: 's',
    COMFYUI_URL: 'http://127.0.0.1:9',
  });
  const user = await createUser(t.db);
  const cookie = await signIn(t.app, user);
  models = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;
}, 120_000);
afterAll(async () => {
  await t.close();
  config.remove();
});

async function richUser() {
  const user = await createUser(t.db, { creditsHundredths: 1_000_000 });
  return { user, cookie: await signIn(t.app, user) };
}
const post = (cookie: string, url: string, body: object) => injectJson(t.app, 'POST', url, { cookie, body });
const byId = (id: string) => {
  const model = models.find((m) => m.id === id);
  if (!model) throw new Error(`no model ${id}`);
  return model;
};

describe('GET /api/models says what each model takes', () => {
  it('states shapes, lengths, end frames, camera moves, reference images and how it is priced', () => {
    expect(byId('local')).toMatchObject({
      aspectRatios: ['16:9', '9:16', '1:1'],
      resolutions: ['480p', '720p', '1080p'],
      // A crossfade from the start frame to the end frame (keyframes.test.ts).
      endFrame: true,
      cameraMoves: [...CAMERA_MOVES],
      referenceImages: 0,
      referencesAlone: false,
      credits: 0.1,
      pricePer: 'second',
      resolutionCredits: { '1080p': 0.2 },
    });
    expect(byId('local').durations).toEqual(Array.from({ length: 19 }, (_, i) => i + 2));
    expect(byId('veo3')).toMatchObject({
      durations: [4, 6, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
      pricePer: 'video',
      resolutionCredits: {},
    });
    expect(byId('kling-v2v')).toMatchObject({ durations: [5, 10], resolutions: ['720p', '1080p'] });
    expect(byId('fal-veo3')).toMatchObject({ credits: 4, economyCredits: 2, resolutionCredits: { '1080p': 6 } });
    // The operator's narrower lists replace the model's own.
    expect(byId('fal-veo3-fast')).toMatchObject({
      durations: [8],
      resolutions: ['720p'],
      cameraMoves: ['static', 'dolly-in'],
    });
  });
});

describe('a control the model cannot take', () => {
  it.each([
    [{ model: 'veo3', aspectRatio: '1:1' }, 'Veo 3 makes 16:9, 9:16 videos, not 1:1.'],
    [{ model: 'fal-kling-2.1', resolution: '720p' }, 'Kling 2.1 Master (fal.ai) renders 1080p, not 720p.'],
    [
      { model: 'fal-veo3-fast', cameraMove: 'orbit' },
      'Veo 3 Fast (fal.ai) cannot take the camera move orbit. It takes static, dolly in.',
    ],
    [{ model: 'fal-veo3-fast', settings: { resolution: '1080p' } }, 'Veo 3 Fast (fal.ai) renders 720p, not 1080p.'],
  ])('%j is refused with a sentence naming it and the model, charging nothing', async (body, message) => {
    const { user, cookie } = await richUser();
    const response = await post(cookie, '/api/video-generation', { description: 'A lighthouse', ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(message);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(0);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.creditsHundredths).toBe(1_000_000);
  });

  it('refuses a value that is not a control at all, and one sent twice with two values', async () => {
    const { cookie } = await richUser();
    const unknown = await post(cookie, '/api/video-generation', { description: 'A', cameraMove: 'barrel-roll' });
    expect(unknown.statusCode).toBe(400);
    const twice = await post(cookie, '/api/video-generation', {
      description: 'A',
      model: 'local',
      aspectRatio: '9:16',
      settings: { aspectRatio: '1:1' },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'conflicting_controls' });
  });

  it('keeps the controls it took on the record, for Remix', async () => {
    const { cookie } = await richUser();
    const created = await post(cookie, '/api/video-generation', {
      description: 'A harbour at night',
      model: 'local',
      aspectRatio: '9:16',
      resolution: '480p',
      duration: 3,
      cameraMove: 'orbit',
      settings: { seed: 4 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<GenerationRecord>()).toMatchObject({
      duration: 3,
      settings: { aspectRatio: '9:16', resolution: '480p', cameraMove: 'orbit', seed: 4 },
    });
  });
});

/** Every model this server runs × every duration × every resolution it renders × standard and economy. */
function table() {
  return models
    .filter((m) => m.available)
    .flatMap((m) =>
      m.durations.flatMap((duration) =>
        m.resolutions.flatMap((resolution) =>
          [false, true].map((isEconomy) => ({ model: m.id, duration, resolution, isEconomy })),
        ),
      ),
    );
}

describe('the price shown before the click is the charge, for every shape', () => {
  it('the estimate, the generator’s own figure and the ledger charge agree', async () => {
    const rows = table();
    // Every available model is in the table, with each of its durations and resolutions.
    expect(new Set(rows.map((r) => r.model)).size).toBe(models.filter((m) => m.available).length);
    expect(rows.length).toBeGreaterThan(150);
    let { user, cookie } = await richUser();
    const seen = new Set<number>();
    for (const [index, row] of rows.entries()) {
      // A user may start 20 videos a minute: a new one every 15.
      if (index > 0 && index % 15 === 0) ({ user, cookie } = await richUser());
      const estimate = await post(cookie, '/api/credits/estimate', { ...row, hasAudio: false });
      expect(estimate.statusCode, estimate.body).toBe(200);
      const { totalCost } = estimate.json<{ data: CostEstimate }>().data;

      // The generator's figure: the shared price function with the catalogue's entry for the model.
      const info = byId(row.model);
      const shape = renderedShape(info, row);
      const shown = toCredits(priceHundredths({ ...row, ...shape, ...NO_ADD_ONS }, modelPriceOf(info)).total);
      expect(shown, JSON.stringify(row)).toBe(totalCost);

      const created = await post(cookie, '/api/video-generation', { description: 'A lighthouse at dawn', ...row });
      expect(created.statusCode, created.body).toBe(201);
      const record = created.json<GenerationRecord>();
      expect(record.creditsUsed, JSON.stringify(row)).toBe(totalCost);
      const [charge] = await t.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.reference, `generation:${record.id}`));
      expect(charge?.deltaHundredths, JSON.stringify(row)).toBe(-Math.round(totalCost * 100));
      seen.add(totalCost);
      // Free the slot (at most 3 unfinished jobs a user): no worker runs here.
      await t.db.delete(generations).where(eq(generations.userId, user.id));
    }
    // The table really varies the price (per second, per resolution, economy).
    expect(seen.size).toBeGreaterThan(20);
    // Spot checks of the figures themselves, in credits.
    const price = async (body: object) =>
      (await post(cookie, '/api/credits/estimate', body)).json<{ data: CostEstimate }>().data.totalCost;
    expect(await price({ model: 'local', duration: 5, resolution: '720p' })).toBe(0.5);
    expect(await price({ model: 'local', duration: 5, resolution: '1080p' })).toBe(1);
    expect(await price({ model: 'local', duration: 5, resolution: '1080p', isEconomy: true })).toBe(0.5);
    expect(await price({ model: 'fal-veo3', duration: 8, resolution: '1080p' })).toBe(6);
    expect(await price({ model: 'fal-veo3', duration: 8, resolution: '1080p', isEconomy: true })).toBe(3);
    expect(await price({ model: 'fal-kling-2.1', duration: 10 })).toBe(4.5);
    // A duration the model does not render is priced (and rendered) at the nearest it does.
    expect(await price({ model: 'fal-kling-2.1', duration: 9 })).toBe(4.5);
  }, 600_000);
});

const NO_ADD_ONS = { hasAudio: false, hasPromptEnhancement: false, hasImageAnalysis: false };
