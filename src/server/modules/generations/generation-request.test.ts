import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import type { GenerationRecord } from '../../../shared/generations';
import { aiResults, creditLedger, generations, users } from '../../db/schema';
import { composeEnginePrompt } from './generation-request';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function richUser() {
  const user = await createUser(t.db, { creditsHundredths: 10_000 });
  return { user, cookie: await signIn(t.app, user) };
}
const post = (cookie: string, url: string, body: object) => injectJson(t.app, 'POST', url, { cookie, body });
const generate = (cookie: string, body: object) => post(cookie, '/api/video-generation', body);
const balanceOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;
const ledgerOf = (id: string) => t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
const rowsOf = (id: string) => t.db.select().from(generations).where(eq(generations.userId, id));

async function enhance(cookie: string, userPrompt: string) {
  const response = await post(cookie, '/api/prompts/enhance-text', { userPrompt });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { enhancedPrompt: string }; resultId: string }>();
}

async function analyse(cookie: string) {
  const image = await uploadFile(t.app, cookie, PNG);
  const response = await post(cookie, '/api/prompts/analyze-image', { imageUrl: image, generatePrompt: true });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { suggestedPrompt: string }; resultId: string }>();
}

/** The request refused with this code, and the user left exactly as they were. */
async function expectRefused(user: { id: string }, response: Awaited<ReturnType<typeof generate>>, code: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().code).toBe(code);
  expect(await rowsOf(user.id)).toHaveLength(0);
  expect(await ledgerOf(user.id)).toHaveLength(0);
  expect(await balanceOf(user.id)).toBe(10_000);
}

describe('the engine prompt', () => {
  it('appends the audio description only when audio is on and one is given', () => {
    expect(composeEnginePrompt(' A lake ', { enabled: true, description: ' soft piano ' })).toBe(
      'A lake\n\nAudio: soft piano',
    );
    expect(composeEnginePrompt('A lake', { enabled: false, description: 'soft piano' })).toBe('A lake');
    expect(composeEnginePrompt('A lake', { enabled: true, description: '  ' })).toBe('A lake');
  });

  it('is composed on the server from the description and the audio description', async () => {
    const { cookie } = await richUser();
    const withAudio = await generate(cookie, {
      description: ' A harbour at dusk ',
      audioDescription: ' Gulls and bells ',
      hasAudio: true,
    });
    expect(withAudio.statusCode, withAudio.body).toBe(201);
    expect(withAudio.json<GenerationRecord>()).toMatchObject({
      prompt: 'A harbour at dusk\n\nAudio: Gulls and bells',
      hasAudio: true,
      creditsUsed: 3,
    });
    const silent = await generate(cookie, {
      description: 'A harbour at dusk',
      audioDescription: 'Gulls and bells',
      hasAudio: false,
    });
    expect(silent.json<GenerationRecord>()).toMatchObject({
      prompt: 'A harbour at dusk',
      hasAudio: false,
      creditsUsed: 1,
    });
  });

  it('needs a description, with the same answer as a blank prompt', async () => {
    const { user, cookie } = await richUser();
    for (const description of ['', '  \n ']) {
      const response = await generate(cookie, { description, audioDescription: 'Rain' });
      expect(response.json()).toEqual({ code: 'prompt_required', message: 'Please provide a text description' });
    }
    expect(await rowsOf(user.id)).toHaveLength(0);
  });

  it('keeps the engine prompt within the older prompt limit, so a video can be remixed from it', async () => {
    const { user, cookie } = await richUser();
    const description = 'A'.repeat(1900);
    const tooLong = await generate(cookie, { description, audioDescription: 'B'.repeat(100), hasAudio: true });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({
      code: 'prompt_too_long',
      message: 'The description and the audio description together must be at most 2000 characters.',
    });
    expect(await rowsOf(user.id)).toHaveLength(0);
    const fits = await generate(cookie, { description, audioDescription: 'B'.repeat(91), hasAudio: true });
    expect(fits.json<GenerationRecord>().prompt).toHaveLength(2000);
  });
});

describe('settings as an object', () => {
  it('refuses a key it does not know, naming it, and keeps the known ones', async () => {
    const { cookie } = await richUser();
    const unknown = await generate(cookie, {
      description: 'A cat',
      settings: { aspectRatio: '9:16', seed: 7, style: 'noir' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      code: 'unknown_fields',
      message: 'settings: "style" is not a field this request takes.',
    });
    const response = await generate(cookie, { description: 'A cat', settings: { aspectRatio: '9:16', seed: 7 } });
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await t.db.select().from(generations).where(eq(generations.id, response.json<GenerationRecord>().id));
    // The shape it is rendered at is stored with them (the model's default resolution, since none was asked).
    expect(row?.settings).toEqual({ aspectRatio: '9:16', seed: 7, resolution: '720p' });
  });

  it('refuses a wrong value with a 400 naming its key, writing nothing', async () => {
    const { user, cookie } = await richUser();
    for (const [settings, key] of [
      [{ aspectRatio: '4:3' }, 'settings.aspectRatio'],
      [{ seed: -1 }, 'settings.seed'],
      [{ resolution: '4k' }, 'settings.resolution'],
      [{ negativePrompt: 'blur\u0000ry' }, 'settings.negativePrompt'],
    ] as const) {
      const response = await generate(cookie, { description: 'A cat', settings });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining(`${key}: `),
      });
    }
    expect((await generate(cookie, { description: 'A cat', settings: '{"seed":1}' })).json().code).toBe(
      'validation_failed',
    );
    await expectRefused(user, await generate(cookie, { description: 'A cat', settings: [] }), 'validation_failed');
  });
});

describe('the AI results a generation names', () => {
  it('charges a valid id once, and the chain of an enhanced suggestion as both', async () => {
    const { user, cookie } = await richUser();
    const enhanced = await enhance(cookie, 'A fox in the snow');
    const one = await generate(cookie, {
      description: enhanced.data.enhancedPrompt,
      aiResultIds: { promptEnhancement: enhanced.resultId },
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json<GenerationRecord>().creditsUsed).toBe(1.5);
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ deltaHundredths: -150, reason: 'Video generation (AI prompt enhancement)' });

    const suggestion = await analyse(cookie);
    const chained = await enhance(cookie, suggestion.data.suggestedPrompt);
    const both = await generate(cookie, {
      description: chained.data.enhancedPrompt,
      aiResultIds: { promptEnhancement: chained.resultId, imageAnalysis: suggestion.resultId },
    });
    expect(both.json<GenerationRecord>().creditsUsed).toBe(2);
    expect(await balanceOf(user.id)).toBe(10_000 - 150 - 200);
  });

  it('charges each generation that names a result (naming it is asking to be charged)', async () => {
    const { user, cookie } = await richUser();
    const suggestion = await analyse(cookie);
    for (let i = 0; i < 2; i += 1) {
      const response = await generate(cookie, {
        description: suggestion.data.suggestedPrompt,
        aiResultIds: { imageAnalysis: suggestion.resultId },
      });
      expect(response.json<GenerationRecord>().creditsUsed).toBe(1.5);
    }
    expect(await balanceOf(user.id)).toBe(10_000 - 300);
    // Not named: the same text is a plain video (the server compares no text in this shape).
    const plain = await generate(cookie, { description: suggestion.data.suggestedPrompt });
    expect(plain.json<GenerationRecord>().creditsUsed).toBe(1);
  });

  it("refuses someone else's id and an unknown id alike, writing nothing", async () => {
    const other = await richUser();
    const theirs = await enhance(other.cookie, 'A fox in the snow');
    const { user, cookie } = await richUser();
    const stolen = await generate(cookie, {
      description: theirs.data.enhancedPrompt,
      aiResultIds: { promptEnhancement: theirs.resultId },
    });
    await expectRefused(user, stolen, 'ai_result_not_found');
    const unknown = await generate(cookie, { description: 'A fox', aiResultIds: { imageAnalysis: randomUUID() } });
    await expectRefused(user, unknown, 'ai_result_not_found');
    const message = (response: typeof stolen) => response.json<{ message: string }>().message;
    expect(message(unknown)).toBe(message(stolen).replace('promptEnhancement', 'imageAnalysis'));
    await expectRefused(
      user,
      await generate(cookie, { description: 'A fox', aiResultIds: { promptEnhancement: 'not-an-id' } }),
      'validation_failed',
    );
  });

  it('refuses an id of the wrong kind, writing nothing', async () => {
    const { user, cookie } = await richUser();
    const enhanced = await enhance(cookie, 'A lighthouse at dawn');
    const response = await generate(cookie, {
      description: enhanced.data.enhancedPrompt,
      aiResultIds: { imageAnalysis: enhanced.resultId },
    });
    await expectRefused(user, response, 'ai_result_wrong_kind');
    expect(response.json().message).toBe("aiResultIds.imageAnalysis must name an image analysis's suggested prompt.");
  });

  it('refuses a result made more than 24 hours ago, writing nothing', async () => {
    const { user, cookie } = await richUser();
    const enhanced = await enhance(cookie, 'A lighthouse at dusk');
    const dayAndASecond = new Date(Date.now() - 24 * 3600_000 - 1000);
    await t.db.update(aiResults).set({ createdAt: dayAndASecond }).where(eq(aiResults.id, enhanced.resultId));
    const response = await generate(cookie, {
      description: enhanced.data.enhancedPrompt,
      aiResultIds: { promptEnhancement: enhanced.resultId },
    });
    await expectRefused(user, response, 'ai_result_expired');
  });
});

describe('the two request shapes', () => {
  it('refuses a body that mixes them, writing nothing', async () => {
    const { user, cookie } = await richUser();
    for (const body of [
      { description: 'A cat', prompt: 'A cat' },
      { description: 'A cat', jsonPrompt: '{}' },
      { prompt: 'A cat', settings: {} },
      { prompt: 'A cat', aiResultIds: {} },
      { audioDescription: 'Rain', usedPromptEnhancement: false },
    ]) {
      const response = await generate(cookie, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('mixed_request_shapes');
    }
    await expectRefused(
      user,
      await generate(cookie, { description: 'A cat', usedImageAnalysis: true }),
      'mixed_request_shapes',
    );
  });

  it('answers both with the same record for the same video', async () => {
    const { cookie } = await richUser();
    const older = (
      await generate(cookie, { prompt: 'A lake\n\nAudio: Rain', jsonPrompt: '{"seed":3}', hasAudio: true })
    ).json<GenerationRecord>();
    const newer = (
      await generate(cookie, { description: 'A lake', audioDescription: 'Rain', settings: { seed: 3 }, hasAudio: true })
    ).json<GenerationRecord>();
    const same = (r: GenerationRecord) => ({
      prompt: r.prompt,
      settings: r.settings,
      hasAudio: r.hasAudio,
      creditsUsed: r.creditsUsed,
    });
    expect(same(newer)).toEqual(same(older));
  });
});
