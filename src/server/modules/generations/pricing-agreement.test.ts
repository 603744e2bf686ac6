import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { type ModelInfo, renderedShape } from '../../../shared/models';
import { toCredits } from '../../../shared/money/credits';
import { ADD_ON_PRICES, type CostEstimate, modelPriceOf, priceHundredths } from '../../../shared/money/pricing';
import { creditLedger, generations, users } from '../../db/schema';
import { composeEnginePrompt as composePrompt } from './generation-request';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function richUser() {
  const user = await createUser(t.db, { creditsHundredths: 100_000 });
  return { user, cookie: await signIn(t.app, user) };
}
const post = (cookie: string, url: string, body: object) => injectJson(t.app, 'POST', url, { cookie, body });
const balanceOf = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths ?? 0;

async function enhance(cookie: string, userPrompt: string): Promise<string> {
  const response = await post(cookie, '/api/prompts/enhance-text', { userPrompt });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { enhancedPrompt: string } }>().data.enhancedPrompt;
}

async function suggestion(cookie: string): Promise<string> {
  const image = await uploadFile(t.app, cookie, PNG);
  const response = await post(cookie, '/api/prompts/analyze-image', { imageUrl: image, generatePrompt: true });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { suggestedPrompt: string } }>().data.suggestedPrompt;
}

const COMBINATIONS = [false, true].flatMap((audio) =>
  [false, true].flatMap((economy) =>
    [false, true].flatMap((enhancement) =>
      [false, true].map((analysis) => ({ audio, economy, enhancement, analysis })),
    ),
  ),
);

describe('the estimate and the charge agree (decision 012)', () => {
  it('lists the add-ons with the amounts the server charges', () => {
    expect(ADD_ON_PRICES.map((a) => [a.label, a.credits])).toEqual([
      ['Audio', 2],
      ['AI prompt enhancement', 0.5],
      ['Image analysis', 0.5],
    ]);
  });

  it.each(COMBINATIONS)('audio $audio, economy $economy, enhancement $enhancement, analysis $analysis', async (c) => {
    const { user, cookie } = await richUser();
    const estimate = await post(cookie, '/api/credits/estimate', {
      model: 'local',
      hasAudio: c.audio,
      isEconomy: c.economy,
      hasPromptEnhancement: c.enhancement,
      hasImageAnalysis: c.analysis,
    });
    expect(estimate.statusCode).toBe(200);
    const { totalCost } = estimate.json<{ data: CostEstimate }>().data;

    // The description the generator would send for this combination: the analysis's suggestion,
    // enhanced or not, or the user's own words, enhanced or not.
    let description = c.analysis ? await suggestion(cookie) : 'A lighthouse at dawn';
    if (c.enhancement) description = await enhance(cookie, description);
    const prompt = composePrompt(description, { enabled: c.audio, description: c.audio ? 'waves and gulls' : '' });
    const before = await balanceOf(user.id);
    const created = await post(cookie, '/api/video-generation', {
      prompt,
      hasAudio: c.audio,
      isEconomy: c.economy,
      usedPromptEnhancement: c.enhancement,
      usedImageAnalysis: c.analysis,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ creditsUsed: number }>().creditsUsed).toBe(totalCost);
    // The generator's own figure: the shared price function with the catalogue's price of the model.
    const local = (await injectJson(t.app, 'GET', '/api/models', { cookie }))
      .json<{ models: ModelInfo[] }>()
      .models.find((m) => m.id === 'local');
    const uses = {
      hasAudio: c.audio,
      isEconomy: c.economy,
      hasPromptEnhancement: c.enhancement,
      hasImageAnalysis: c.analysis,
    };
    expect(local && toCredits(priceHundredths(uses, modelPriceOf(local)).total)).toBe(totalCost);
    expect(before - (await balanceOf(user.id))).toBe(Math.round(totalCost * 100));
    const [charge] = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(charge?.deltaHundredths).toBe(-Math.round(totalCost * 100));
    if (c.enhancement) expect(charge?.reason).toContain('AI prompt enhancement');
    if (c.analysis) expect(charge?.reason).toContain('image analysis');
  });

  it('refuses a use it did not produce for this user, charging nothing', async () => {
    const other = await richUser();
    const theirs = await enhance(other.cookie, 'A fox in the snow');
    const { user, cookie } = await richUser();
    for (const body of [
      { prompt: theirs, usedPromptEnhancement: true },
      { prompt: 'Typed by hand', usedPromptEnhancement: true },
      { prompt: 'Typed by hand', usedImageAnalysis: true },
    ]) {
      const response = await post(cookie, '/api/video-generation', body);
      expect(response.statusCode).toBe(400);
      expect(['enhancement_not_found', 'analysis_not_found']).toContain(response.json().code);
    }
    // An enhanced prompt of the user's own words is not an image analysis.
    const mine = await enhance(cookie, 'A fox in the snow');
    const claimed = await post(cookie, '/api/video-generation', {
      prompt: mine,
      usedPromptEnhancement: true,
      usedImageAnalysis: true,
    });
    expect(claimed.json().code).toBe('analysis_not_found');
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(100_000);
    // Not claimed: the enhanced text is charged as a plain video (a client can always retype it).
    const plain = await post(cookie, '/api/video-generation', { prompt: mine });
    expect(plain.json().creditsUsed).toBe(1);
  });
});

describe('compare with another model: the sum shown is the sum charged', () => {
  let fal: TestApp;
  beforeAll(async () => {
    fal = await createTestApp({ FAL_KEY: 'k' });
  }, 120_000);
  afterAll(async () => {
    await fal.close();
  });

  const PAIRS = [
    { model: 'local', compareModel: 'fal-veo3' },
    { model: 'fal-veo3', compareModel: 'local' },
    { model: 'local', compareModel: 'fal-kling-2.1' },
  ];
  const ROWS = PAIRS.flatMap((pair) =>
    [false, true].flatMap((audio) => [false, true].map((economy) => ({ ...pair, audio, economy }))),
  );

  it.each(ROWS)('$model + $compareModel, audio $audio, economy $economy', async (c) => {
    const user = await createUser(fal.db, { creditsHundredths: 100_000 });
    const cookie = await signIn(fal.app, user);
    const request = { aspectRatio: '16:9' as const, duration: 5, hasAudio: c.audio, isEconomy: c.economy };
    const catalogue = (await injectJson(fal.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>()
      .models;
    // The generator's figure: each model's price of the shape it renders, from the shared price function.
    const shown = [c.model, c.compareModel].reduce((sum, id) => {
      const info = catalogue.find((m) => m.id === id);
      if (!info) throw new Error(`no model ${id}`);
      const shape = renderedShape(info, { ...request, resolution: null });
      const uses = { hasAudio: c.audio, isEconomy: c.economy, hasPromptEnhancement: false, hasImageAnalysis: false };
      return sum + priceHundredths({ ...uses, ...shape }, modelPriceOf(info)).total;
    }, 0);
    const created = await injectJson(fal.app, 'POST', '/api/video-generation', {
      cookie,
      body: { description: 'A lighthouse at dawn', ...request, model: c.model, compareModel: c.compareModel },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { group } = created.json<{ group: { model: string; creditsUsed: number }[] }>();
    expect(group.map((record) => record.model)).toEqual([c.model, c.compareModel]);
    const charged = Math.round(group.reduce((sum, record) => sum + record.creditsUsed, 0) * 100);
    expect(charged).toBe(shown);
    const balance = (await fal.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths;
    expect(100_000 - (balance ?? 0)).toBe(shown);
  });
});
