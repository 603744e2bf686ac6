import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import type { ModelInfo } from '../../shared/models';
import { loadConfig } from '../config';
import { createEngineRegistry, unreachableInputsWarning } from '.';

// GET /api/models: one catalogue of every model, its price from MODELS_CONFIG, and why an unavailable one is.
let dir: string;
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'models-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The catalogue as an administrator sees it (with the settings each model needs; others see the reasons without them). */
async function catalogue(env: Record<string, string>) {
  const t = await createTestApp(env);
  try {
    const user = await createUser(t.db, { creditsHundredths: 1000, isAdmin: true });
    const cookie = await signIn(t.app, user);
    const models = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;
    return { t, cookie, models };
  } catch (error) {
    await t.close();
    throw error;
  }
}

describe('the model catalogue', () => {
  it('without keys: only the local engine is available, and every other model says why', async () => {
    const { t, models } = await catalogue({});
    try {
      expect(models.filter((m) => m.available).map((m) => m.id)).toEqual(['local']);
      expect(models.find((m) => m.id === 'local')).toMatchObject({
        engine: 'local',
        isDefault: true,
        isPreview: true,
        reason: null,
        inputs: ['text', 'image', 'video', 'audio'],
      });
      for (const model of models.filter((m) => !m.available))
        expect(model.reason, model.id).toMatch(/^Not available on this server: .+/);
      const reasons = Object.fromEntries(models.map((m) => [m.engine, m.reason]));
      expect(reasons.fal).toContain('FAL_KEY');
      expect(reasons.replicate).toContain('REPLICATE_API_TOKEN');
      expect(reasons.comfyui).toContain('COMFYUI_URL');
      expect(reasons.veo).toContain('Gemini');
      // Someone who is not the operator is told why, without the server's setting names.
      const member = await createUser(t.db);
      const seen = (await injectJson(t.app, 'GET', '/api/models', { cookie: await signIn(t.app, member) })).json<{
        models: ModelInfo[];
      }>().models;
      const memberReasons = Object.fromEntries(seen.map((m) => [m.engine, m.reason]));
      expect(memberReasons.fal).toMatch(/^Not available on this server: .+/);
      expect(JSON.stringify(memberReasons)).not.toMatch(/FAL_KEY|REPLICATE_API_TOKEN|COMFYUI_URL/);
      expect(models.find((m) => m.id === 'veo3')).toMatchObject({
        credits: 1,
        economyCredits: 0.5,
        durations: [4, 6, 8],
        sound: true,
        aspectRatios: ['16:9', '9:16'],
      });
      expect(models.find((m) => m.id === 'kling-v2v')).toMatchObject({
        credits: 1,
        economyCredits: 0.5,
        durations: [5, 10],
      });
    } finally {
      await t.close();
    }
  });

  it('with each key its models appear, priced from MODELS_CONFIG; the estimate and the charge use that price', async () => {
    const config = write('models.json', {
      models: {
        'fal-veo3': { credits: 4, economyCredits: 2 },
        'replicate-kling-2.1': { credits: 2.5 },
        'comfyui-ltxv': { credits: 0.25 },
        'fal-hailuo-02': { enabled: false },
        veo3: { credits: 3 },
      },
    });
    const { t, cookie, models } = await catalogue({
      FAL_KEY: 'k',
      REPLICATE_API_TOKEN: 'r',
      COMFYUI_URL: 'http://127.0.0.1:9',
      GEMINI_API_KEY: 'g',
      MODELS_CONFIG: config,
    });
    try {
      const byId = new Map(models.map((m) => [m.id, m]));
      expect(byId.get('fal-veo3')).toMatchObject({ available: true, engine: 'fal', credits: 4, economyCredits: 2 });
      expect(byId.get('replicate-kling-2.1')).toMatchObject({
        available: true,
        engine: 'replicate',
        credits: 2.5,
        economyCredits: 1.25,
      });
      expect(byId.get('comfyui-ltxv')).toMatchObject({ available: true, engine: 'comfyui', credits: 0.25 });
      expect(byId.get('comfyui-wan22-ti2v-5b')).toMatchObject({ available: true, credits: 1 });
      expect(byId.get('fal-hailuo-02')).toMatchObject({
        available: false,
        reason: 'Not available on this server: its operator switched it off.',
      });
      expect(byId.get('veo3')).toMatchObject({ available: true, isDefault: true, credits: 3 });
      expect(byId.get('kling-v2v')?.available).toBe(false);

      const estimate = await injectJson(t.app, 'POST', '/api/credits/estimate', {
        cookie,
        body: { model: 'fal-veo3', hasAudio: true },
      });
      expect(estimate.json()).toMatchObject({ data: { totalCost: 6 } });
      const economy = await injectJson(t.app, 'POST', '/api/credits/estimate', {
        cookie,
        body: { model: 'fal-veo3', isEconomy: true },
      });
      expect(economy.json()).toMatchObject({ data: { totalCost: 2 } });
      // A request that names no model gets the catalogue's default, Veo 3 here, at its price.
      expect(models.filter((m) => m.isDefault).map((m) => m.id)).toEqual(['veo3']);
      const unnamed = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: {} });
      expect(unnamed.json()).toMatchObject({
        data: { totalCost: 3, breakdown: { modelSelection: { selectedModel: 'veo3' } } },
      });
      const unknown = await injectJson(t.app, 'POST', '/api/credits/estimate', { cookie, body: { model: 'nope' } });
      expect(unknown.statusCode).toBe(400);

      const created = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: 'fal-veo3' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ creditsUsed: 4, model: 'fal-veo3', duration: 8 });
      const off = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: 'fal-hailuo-02' },
      });
      expect(off.statusCode).toBe(400);
      expect(off.json()).toMatchObject({ message: 'Not available on this server: its operator switched it off.' });
      const square = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: 'fal-veo3', jsonPrompt: '{"aspectRatio":"1:1"}' },
      });
      expect(square.json()).toMatchObject({ message: 'Veo 3 (fal.ai) makes 16:9, 9:16 videos, not 1:1.' });
      const video = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: 'fal-veo3', videoFile: '/objects/uploads/x/y' },
      });
      expect(video.json()).toMatchObject({
        message: 'Veo 3 (fal.ai) cannot take a video. Remove it, or choose a model that takes one.',
      });
      const missing = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: 'no-such-model' },
      });
      expect(missing.statusCode).toBe(400);
      const hostile = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A cat', model: '../../etc' },
      });
      expect(hostile.statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('has one default model: Veo 3, else Kling, else the first AI model it can run, else the local engine', () => {
    const defaultFor = (env: Record<string, string>) =>
      createEngineRegistry(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40), ...env }));
    for (const [env, expected] of [
      [{}, 'local'],
      [{ FAL_KEY: 'k' }, 'fal-veo3'],
      [{ FAL_KEY: 'k', KLING_ACCESS_KEY: 'a', KLING_SECRET_KEY: 's' }, 'kling-v2v'],
      [{ FAL_KEY: 'k', KLING_ACCESS_KEY: 'a', KLING_SECRET_KEY: 's', GEMINI_API_KEY: 'g' }, 'veo3'],
    ] as const) {
      const registry = defaultFor(env);
      expect(registry.defaultModel, JSON.stringify(env)).toBe(expected);
      expect(
        registry
          .list()
          .filter((m) => m.isDefault)
          .map((m) => m.id),
      ).toEqual([expected]);
    }
  });

  it('refuses a MODELS_CONFIG that is not valid at start, naming the problem', () => {
    const registry = (file: string) => () =>
      createEngineRegistry(
        loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40), MODELS_CONFIG: file }),
      );
    expect(registry(write('bad.json', '{ not json'))).toThrow(/MODELS_CONFIG: .*bad\.json is not readable JSON/);
    expect(registry(write('typo.json', { models: { 'fal-veo-3': { credits: 2 } } }))).toThrow(
      /unknown model ids fal-veo-3/,
    );
    expect(registry(write('tool.json', { models: {}, finishing: { 'local-upscal': { credits: 1 } } }))).toThrow(
      /unknown finishing tool ids local-upscal/,
    );
    expect(
      registry(write('tool-price.json', { models: {}, finishing: { 'local-upscale': { credits: 'one' } } })),
    ).toThrow(/finishing\.local-upscale\.credits/);
    expect(registry(write('price.json', { models: { 'fal-veo3': { credits: -1 } } }))).toThrow(
      /models\.fal-veo3\.credits/,
    );
    expect(registry(write('extra.json', { models: { 'fal-veo3': { credit: 2 } } }))).toThrow(/MODELS_CONFIG/);
    expect(registry(path.join(dir, 'absent.json'))).toThrow(/not readable/);
  });

  it('warns at start when fal.ai or Replicate cannot reach PUBLIC_URL for input images', () => {
    const fal = { apiKey: 'k', baseUrl: 'https://queue.fal.run' };
    expect(unreachableInputsWarning({ fal, replicate: undefined, publicUrl: 'http://localhost:3000' })).toMatch(
      /^PUBLIC_URL is http:\/\/localhost:3000: fal.ai and Replicate cannot fetch/,
    );
    expect(
      unreachableInputsWarning({ fal, replicate: undefined, publicUrl: 'http://192.168.1.20:3000' }),
    ).not.toBeNull();
    expect(unreachableInputsWarning({ fal, replicate: undefined, publicUrl: 'https://videos.example.com' })).toBeNull();
    expect(
      unreachableInputsWarning({ fal: undefined, replicate: undefined, publicUrl: 'http://localhost:3000' }),
    ).toBeNull();
  });
});
