import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';

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
    const batch = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: { batchSize: 0 } });
    expect(batch.statusCode).toBe(400);
    expect((await injectJson(t.app, 'POST', '/api/credits/estimate', { body: {} })).statusCode).toBe(401);
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
