import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { type CostEstimate, costEstimateSchema } from '../../../shared/money/pricing';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await signIn(t.app, await createUser(t.db));
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/credits/estimate', () => {
  it('prices a request on the server with the spec defaults', async () => {
    const response = await injectJson(t.app, 'POST', '/api/credits/estimate', {
      cookie,
      body: { userPlan: 'JUST_FOR_FUN', hasAudio: true, hasPromptEnhancement: true, hasImageAnalysis: false },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      data: {
        totalCost: 3.5,
        baseVideo: 3,
        promptEnhancement: 0.5,
        breakdown: { modelSelection: { selectedModel: 'veo3' } },
      },
    });
    const empty = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: {} });
    expect(empty.json().data.totalCost).toBe(1);
  });

  it('refuses unknown models, bad batches and signed-out callers', async () => {
    const model = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: { model: 'sora' } });
    expect(model.statusCode).toBe(400);
    expect(model.json().message).toContain('model');
    expect(model.json().code).toBe('unknown_model');
    const batch = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: { batchSize: 0 } });
    expect(batch.statusCode).toBe(400);
    expect((await injectJson(t.app, 'POST', '/api/credits/estimate', { body: {} })).statusCode).toBe(401);
  });

  it("answers an older client's full request, whose plan and Gemini optimisation change nothing", async () => {
    const body = {
      userPlan: 'JUST_FOR_FUN',
      duration: 8,
      model: 'local',
      hasPromptEnhancement: false,
      hasImageAnalysis: true,
      hasGeminiOptimization: true,
      hasAudio: false,
      batchSize: 2,
    };
    const response = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: CostEstimate }>();
    expect(costEstimateSchema.parse(data)).toEqual(data);
    expect(data).toMatchObject({
      totalCost: 3,
      imageAnalysis: 1,
      geminiOptimization: 0,
      breakdown: { modelSelection: { selectedModel: 'local' } },
      recommendations: { planUpgrade: { planName: 'JUST_FOR_FUN', upgradeWorthIt: false } },
    });
  });
});

describe('GET /api/credits/balance', () => {
  it("answers the caller's own balance in credits, and 401 when signed out", async () => {
    const rich = await createUser(t.db, { creditsHundredths: 1250 });
    const response = await injectJson(t.app, 'GET', '/api/credits/balance', { cookie: await signIn(t.app, rich) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ credits: 12.5 });
    expect((await injectJson(t.app, 'GET', '/api/credits/balance')).statusCode).toBe(401);
  });
});

describe('GET /api/user/balance', () => {
  it('answers in one what /api/user/status, /api/user/generation-status and /api/credits/balance answer in parts', async () => {
    const subscriber = await createUser(t.db, { creditsHundredths: 1250, subscriptionStatus: 'active' });
    const own = await signIn(t.app, subscriber);
    const get = async (url: string) => (await injectJson(t.app, 'GET', url, { cookie: own })).json<unknown>();
    const balance = await injectJson(t.app, 'GET', '/api/user/balance', { cookie: own });
    expect(balance.statusCode).toBe(200);
    expect(balance.json()).toEqual({
      status: await get('/api/user/status'),
      generationStatus: await get('/api/user/generation-status'),
    });
    expect(balance.json()).toMatchObject({
      status: { availableCredits: 12.5, isUnlimited: false, plan: 'JUST_FOR_FUN', planName: 'Daily Subscription' },
      generationStatus: { dailyUsed: 0, subscriptionStatus: 'active', canGenerate: true },
    });
    expect(await get('/api/credits/balance')).toEqual({ credits: 12.5 });
    expect((await injectJson(t.app, 'GET', '/api/user/balance')).statusCode).toBe(401);
  });
});

describe('GET /api/user/balance: its ETag', () => {
  let clocked: TestApp;
  /** The server's clock when a test moves it; the real time otherwise. */
  let clock: Date | null = null;
  beforeAll(async () => {
    clocked = await createTestApp({}, undefined, { now: () => clock ?? new Date() });
  });
  afterAll(async () => {
    await clocked?.close();
  });

  it('answers 304 while nothing changed, and 200 after a generation spent from it or a new generation day', async () => {
    const url = '/api/user/balance';
    // 2:58:30am New York time (EDT): today's daily generations reset at 3am.
    clock = new Date('2026-06-10T06:58:30Z');
    try {
      const user = await createUser(clocked.db, { subscriptionStatus: 'active', creditsHundredths: 500 });
      const own = await signIn(clocked.app, user);
      const get = (etag?: string) =>
        injectJson(clocked.app, 'GET', url, { cookie: own, headers: etag ? { 'if-none-match': etag } : {} });
      const first = await get();
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get(etag);
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      const created = await injectJson(clocked.app, 'POST', '/api/video-generation', {
        cookie: own,
        body: { prompt: 'A kite', model: 'local' },
      });
      expect(created.statusCode).toBe(201);
      const used = await get(etag);
      expect(used.statusCode).toBe(200);
      expect(used.json()).toMatchObject({ generationStatus: { dailyUsed: 1 } });
      const usedTag = used.headers.etag as string;
      expect((await get(usedTag)).statusCode).toBe(304);

      // 3am: a new generation day, with no change of the user's.
      clock = new Date('2026-06-10T07:00:00Z');
      const reset = await get(usedTag);
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toMatchObject({ generationStatus: { dailyUsed: 0 } });
    } finally {
      clock = null;
    }
  });
});
