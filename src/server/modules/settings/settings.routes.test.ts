import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { type FakeFal, startFakeFal } from '../../../../tests/support/fake-fal';
import { chatAnswer, startFakeOpenAi } from '../../../../tests/support/fake-openai';
import { makeMediaFixtures } from '../../../../tests/support/media';
import {
  FAST_PROVIDER_ENV,
  followJob,
  startGeneration,
  startTestWorker,
  waitUntil,
} from '../../../../tests/support/pipeline';
import type { InstallationSettings } from '../../../shared/installation-settings';
import type { ModelInfo } from '../../../shared/models';
import { createServiceContext } from '../../context';
import { adminAuditLog, installationSettings, users } from '../../db/schema';
import { accountForIdentity } from '../auth/identities.service';
import { followInstallationSettings } from './settings.service';

// The settings page's API (issue 45): an administrator connects fal.ai with a key that the fal
// stand-in (tests/support/fake-fal.ts, written from fal's documentation) accepts or refuses.

const SAVED_KEY = 'fal-live-0123456789abcdef-key';
let fal: FakeFal;
let t: TestApp;
let admin: string;
let customer: string;

const falModel = async (cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/models', { cookie }))
    .json<{ models: ModelInfo[] }>()
    .models.find((m) => m.id === 'fal-veo3');

beforeAll(async () => {
  fal = await startFakeFal((await makeMediaFixtures()).video, SAVED_KEY);
  fal.stepMs = 20;
  t = await createTestApp({
    ...FAST_PROVIDER_ENV,
    FAL_BASE_URL: fal.baseUrl,
    FAL_API_URL: fal.baseUrl,
    PUBLIC_URL: 'https://reelsmith.example',
  });
  admin = await signIn(t.app, await createUser(t.db, { isAdmin: true }));
  customer = await signIn(t.app, await createUser(t.db, { creditsHundredths: 5000 }));
});
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

describe('connecting a provider from the browser', () => {
  it('is for administrators only, and refuses fields no provider has', async () => {
    expect((await injectJson(t.app, 'GET', '/api/admin/settings', { cookie: customer })).statusCode).toBe(403);
    expect((await injectJson(t.app, 'GET', '/api/admin/settings')).statusCode).toBe(401);
    const put = (body: unknown) => injectJson(t.app, 'PUT', '/api/admin/settings/providers', { cookie: admin, body });
    expect((await put({ provider: 'fal', apiKey: SAVED_KEY, baseUrl: 'http://evil' })).statusCode).toBe(400);
    expect((await put({ provider: 'fal' })).statusCode).toBe(400);
    expect((await put({ provider: 'fal', apiKey: 'two words' })).json()).toMatchObject({
      message: expect.stringContaining('paste the key alone'),
    });
    expect((await put({ provider: 'openai', apiKey: 'x' })).statusCode).toBe(400);
    expect((await put({ provider: 'comfyui', url: 'file:///etc/passwd' })).statusCode).toBe(400);
    expect(fal.pricingChecks).toBe(0);
  });

  it('starts with nothing connected: previews only', async () => {
    const settings = (
      await injectJson(t.app, 'GET', '/api/admin/settings', { cookie: admin })
    ).json<InstallationSettings>();
    expect(settings.previewOnly).toBe(true);
    expect(settings.providers.find((p) => p.id === 'fal')).toMatchObject({ source: 'none', hint: null, models: [] });
    expect(await falModel(customer)).toMatchObject({ available: false });
  });

  it("refuses a wrong key with fal.ai's reason and saves nothing", async () => {
    const response = await injectJson(t.app, 'PUT', '/api/admin/settings/providers', {
      cookie: admin,
      body: { provider: 'fal', apiKey: 'fal-wrong-key-000000' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'provider_key_refused',
      message: 'fal.ai refused this: Invalid API key: no fal.ai key matches it. Nothing was saved.',
    });
    expect(fal.pricingChecks).toBe(0); // the stand-in counts only calls that got past its key check
    expect(await t.db.select().from(installationSettings)).toEqual([]);
  });

  it('tries the right key, keeps it sealed, and the next video is made by fal.ai with no restart', async () => {
    const response = await injectJson(t.app, 'PUT', '/api/admin/settings/providers', {
      cookie: admin,
      body: { provider: 'fal', apiKey: `  ${SAVED_KEY} ` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(fal.pricingChecks).toBe(1);
    const settings = response.json<InstallationSettings>();
    expect(settings.previewOnly).toBe(false);
    expect(settings.providers.find((p) => p.id === 'fal')).toMatchObject({
      source: 'saved',
      hint: '…-key',
      models: expect.arrayContaining(['Veo 3 (fal.ai)']),
    });

    // The database holds no plain key, and the audit log no key at all.
    const [row] = await t.db.select().from(installationSettings);
    expect(row?.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(SAVED_KEY);
    expect(JSON.stringify(row)).not.toContain('0123456789abcdef');
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'settings.provider.save'));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('0123456789abcdef');

    expect(await falModel(customer)).toMatchObject({ available: true });
    const worker = startTestWorker(t);
    try {
      const record = await startGeneration(t, customer, { model: 'fal-veo3', duration: 8 });
      const { row: done } = await followJob(t, record.id);
      expect(done).toMatchObject({ status: 'completed' });
      expect(fal.requests.at(-1)?.endpoint).toBe('fal-ai/veo3');
    } finally {
      await worker.stop(1000);
    }
    // A whole render through the pipeline (screened, signed, stored): more than the default 30 s on a busy machine.
  }, 120_000);

  it('reaches another process on the same database through its notification', async () => {
    // A second service context on the same database, as a worker process has.
    const other = createServiceContext(t.config, t.testDb.database);
    const stop = await followInstallationSettings(other, { warn: () => undefined });
    try {
      expect(other.engines.get('fal-veo3')).not.toBeNull();
      const removed = await injectJson(t.app, 'DELETE', '/api/admin/settings/providers/fal', { cookie: admin });
      expect(removed.statusCode).toBe(200);
      expect(removed.json<InstallationSettings>().previewOnly).toBe(true);
      await waitUntil(() => other.engines.get('fal-veo3') === null);
      expect(await falModel(customer)).toMatchObject({ available: false });
      expect(
        (await injectJson(t.app, 'DELETE', '/api/admin/settings/providers/fal', { cookie: admin })).statusCode,
      ).toBe(404);
    } finally {
      await stop();
    }
  });

  it('leaves a provider set in the environment to the environment', async () => {
    const envApp = await createTestApp({ FAL_KEY: 'env-fal-key-123456789', FAL_API_URL: fal.baseUrl });
    try {
      const cookie = await signIn(envApp.app, await createUser(envApp.db, { isAdmin: true }));
      const settings = (
        await injectJson(envApp.app, 'GET', '/api/admin/settings', { cookie })
      ).json<InstallationSettings>();
      expect(settings.providers.find((p) => p.id === 'fal')).toMatchObject({ source: 'environment', hint: '…6789' });
      const response = await injectJson(envApp.app, 'PUT', '/api/admin/settings/providers', {
        cookie,
        body: { provider: 'fal', apiKey: SAVED_KEY },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('FAL_KEY');
    } finally {
      await envApp.close();
    }
  });

  it('says when a provider cannot be reached, and saves nothing', async () => {
    const response = await injectJson(t.app, 'PUT', '/api/admin/settings/providers', {
      cookie: admin,
      body: { provider: 'comfyui', url: 'http://127.0.0.1:9/' },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'provider_unreachable' });
    expect(response.json().message).toMatch(/^Could not check this with ComfyUI \(.+\)\. Nothing was saved/);
    expect(await t.db.select().from(installationSettings)).toEqual([]);
  });
});

describe("the operator's contact from the browser", () => {
  it('is shown to people at once, and forgotten with null', async () => {
    const providers = async () =>
      (await injectJson(t.app, 'GET', '/api/auth/providers')).json<{ operatorContact: string | null }>();
    expect((await providers()).operatorContact).toBeNull();
    const bad = await injectJson(t.app, 'PUT', '/api/admin/settings/contact', {
      cookie: admin,
      body: { contact: 'call me maybe' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Give an email address, or a web address starting with https://');
    expect(
      (await injectJson(t.app, 'PUT', '/api/admin/settings/contact', { cookie: customer, body: { contact: null } }))
        .statusCode,
    ).toBe(403);

    const saved = await injectJson(t.app, 'PUT', '/api/admin/settings/contact', {
      cookie: admin,
      body: { contact: ' owner@example.com ' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<InstallationSettings>()).toMatchObject({
      contact: { source: 'saved', value: 'owner@example.com' },
      setup: { operatorContact: true },
    });
    expect((await providers()).operatorContact).toBe('owner@example.com');

    const cleared = await injectJson(t.app, 'PUT', '/api/admin/settings/contact', {
      cookie: admin,
      body: { contact: null },
    });
    expect(cleared.json<InstallationSettings>().contact).toEqual({ source: 'none', value: null });
    expect((await providers()).operatorContact).toBeNull();
    const audit = await t.db.select().from(adminAuditLog);
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['settings.contact.save', 'settings.contact.remove']),
    );
  });
});

describe('your own text model from the browser', () => {
  it('is asked for its list of models, must have the one named, and then answers AI Enhance', async () => {
    const llm = await startFakeOpenAi();
    llm.apiKey = 'sk-local-model-key';
    try {
      const put = (body: object) =>
        injectJson(t.app, 'PUT', '/api/admin/settings/providers', {
          cookie: admin,
          body: { provider: 'llm', ...body },
        });
      const missing = await put({ url: llm.baseUrl, model: 'gpt-9', apiKey: 'sk-local-model-key' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toBe(
        'Your own text model refused this: it has no model named gpt-9 (it has llama3.2-vision, qwen2.5vl). Nothing was saved.',
      );
      const wrongKey = await put({ url: llm.baseUrl, model: 'qwen2.5vl', apiKey: 'sk-wrong' });
      expect(wrongKey.json().message).toBe(
        'Your own text model refused this: Incorrect API key provided. Nothing was saved.',
      );

      const saved = await put({ url: llm.baseUrl, model: 'qwen2.5vl', apiKey: 'sk-local-model-key' });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<InstallationSettings>().providers.find((p) => p.id === 'llm')).toMatchObject({
        source: 'saved',
        hint: `qwen2.5vl at ${llm.baseUrl}`,
      });
      llm.replies.push(
        chatAnswer({ enhancedPrompt: 'A red fox in deep snow, slow dolly in', improvements: [], confidence: 0.9 }),
      );
      const enhanced = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
        cookie: customer,
        body: { userPrompt: 'A red fox in snow' },
      });
      expect(enhanced.statusCode, enhanced.body).toBe(200);
      const chat = llm.received.find((r) => r.path === '/v1/chat/completions');
      expect(chat?.body).toMatchObject({ model: 'qwen2.5vl' });
      expect(chat?.headers.authorization).toBe('Bearer sk-local-model-key');
      await injectJson(t.app, 'DELETE', '/api/admin/settings/providers/llm', { cookie: admin });
    } finally {
      await llm.close();
    }
  });
});

describe('videos and sign-up rules from the browser', () => {
  const putRules = (body: unknown, cookie = admin, app = t.app) =>
    injectJson(app, 'PUT', '/api/admin/settings/rules', { cookie, body });
  const balanceOf = async (email: string) =>
    (await t.db.select().from(users).where(eq(users.email, email)))[0]?.creditsHundredths;

  it('refuses rules out of range, unknown fields and customers, and saves nothing', async () => {
    for (const body of [
      { videoHours: 0 },
      { videoHours: 8761 },
      { videoHours: 1.5 },
      { keepFor: ['nobody'] },
      { keepFor: ['admins', 'admins'] },
      { signupCreditsHundredths: -1 },
      { registrationChallenge: 'yes' },
      { retentionHours: 48 },
    ]) {
      const response = await putRules(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await putRules({ videoHours: 48 }, customer)).statusCode).toBe(403);
    const rows = await t.db.select().from(installationSettings).where(eq(installationSettings.name, 'rules'));
    expect(rows).toEqual([]);
    const settings = (
      await injectJson(t.app, 'GET', '/api/admin/settings', { cookie: admin })
    ).json<InstallationSettings>();
    expect(settings.rules).toEqual({
      videoHours: { value: 24, source: 'none' },
      keepFor: { value: [], source: 'none' },
      signupCreditsHundredths: { value: 100, source: 'none' },
      registrationOpen: { value: true, source: 'none' },
      registrationChallenge: { value: false, source: 'none' },
    });
  });

  it('gives new accounts the saved credits, keeps videos the saved hours, lets the saved groups keep them, and asks for the challenge', async () => {
    const catalogue = t.ctx.engines;
    const saved = await putRules({ videoHours: 72, keepFor: ['everyone'], signupCreditsHundredths: 250 });
    expect(saved.statusCode, saved.body).toBe(200);
    // A rule changes no provider: the model catalogue is not built again.
    expect(t.ctx.engines).toBe(catalogue);
    expect(t.ctx.config.retention.videoHours).toBe(72);
    expect(saved.json<InstallationSettings>().rules).toMatchObject({
      videoHours: { value: 72, source: 'saved' },
      keepFor: { value: ['everyone'], source: 'saved' },
      signupCreditsHundredths: { value: 250, source: 'saved' },
      registrationChallenge: { value: false, source: 'none' },
    });

    const email = `rules-${Date.now()}@example.com`;
    const registered = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password: 'a long enough password 1', firstName: 'Rule' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(await balanceOf(email)).toBe(250);

    const worker = startTestWorker(t);
    try {
      const record = await startGeneration(t, customer, { model: 'local', duration: 2 });
      const { row } = await followJob(t, record.id, 120_000);
      expect(row).toMatchObject({ status: 'completed' });
      const hours = ((row?.expiresAt?.getTime() ?? 0) - (row?.completedAt?.getTime() ?? 0)) / 3_600_000;
      expect(hours).toBeCloseTo(72, 3);
      const kept = await injectJson(t.app, 'POST', `/api/video-generation/${record.id}/keep`, {
        cookie: customer,
        body: { keep: true },
      });
      expect(kept.statusCode, kept.body).toBe(200);
    } finally {
      await worker.stop(1000);
    }

    expect((await putRules({ registrationChallenge: true })).statusCode).toBe(200);
    const options = (await injectJson(t.app, 'GET', '/api/auth/providers')).json();
    expect(options).toMatchObject({ registrationChallenge: true });
    const refused = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: `rules-b-${Date.now()}@example.com`, password: 'a long enough password 1', firstName: 'Rule' },
    });
    expect(refused.json()).toMatchObject({ code: 'challenge_required' });

    // Back to the defaults: every rule as the environment (here: the product) has it.
    const reset = await putRules({});
    expect(reset.json<InstallationSettings>().rules).toEqual({
      videoHours: { value: 24, source: 'none' },
      keepFor: { value: [], source: 'none' },
      signupCreditsHundredths: { value: 100, source: 'none' },
      registrationOpen: { value: true, source: 'none' },
      registrationChallenge: { value: false, source: 'none' },
    });
    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'settings.rules.save'));
    expect(audit).toHaveLength(3);
  });

  it('closes registration to new accounts, by password and by a first external sign-in, and opens it again', async () => {
    // The installation's first account (which becomes its administrator) is always taken: make it first.
    await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: `owner-${Date.now()}@example.com`, password: 'a long enough password 1', firstName: 'Own' },
    });
    expect((await putRules({ registrationOpen: false })).statusCode).toBe(200);
    expect((await injectJson(t.app, 'GET', '/api/auth/providers')).json()).toMatchObject({ registrationOpen: false });
    const email = `closed-${Date.now()}@example.com`;
    const refused = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password: 'a long enough password 1', firstName: 'Nova' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'registration_closed',
      message: 'This server is not taking new accounts. Ask the person who runs it for one.',
    });
    expect(await balanceOf(email)).toBeUndefined();
    const profile = {
      provider: 'google' as const,
      subject: `g-${Date.now()}`,
      emailVerified: true,
      firstName: 'N',
      lastName: null,
    };
    await expect(accountForIdentity(t.ctx, { ...profile, email })).rejects.toMatchObject({
      code: 'registration_closed',
    });
    // An account the server has signs in through a provider as before.
    const existing = await createUser(t.db, { email: `kept-${Date.now()}@example.com` });
    expect((await accountForIdentity(t.ctx, { ...profile, email: existing.email })).id).toBe(existing.id);

    expect((await putRules({})).statusCode).toBe(200);
    const opened = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password: 'a long enough password 1', firstName: 'Nova' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
  });

  it('takes the first account on a closed server, the administrator, and no other, even two at once', async () => {
    const closed = await createTestApp({ REGISTRATION_OPEN: 'false' });
    try {
      const register = (email: string) =>
        injectJson(closed.app, 'POST', '/api/auth/register', {
          body: { email, password: 'a long enough password 1', firstName: 'Ada' },
        });
      // Two first registrations at once: one becomes the administrator, the other is not made.
      const both = await Promise.all([
        register(`first-a-${Date.now()}@example.com`),
        register(`first-b-${Date.now()}@example.com`),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 403]);
      expect(both.find((r) => r.statusCode === 201)?.json()).toMatchObject({ isAdmin: true });
      expect(both.find((r) => r.statusCode === 403)?.json()).toMatchObject({ code: 'registration_closed' });
      expect(await closed.db.select().from(users)).toHaveLength(1);
      expect((await register(`second-${Date.now()}@example.com`)).json()).toMatchObject({
        code: 'registration_closed',
      });
    } finally {
      await closed.close();
    }
  });

  it('leaves a rule set in the environment to the environment, and saves the others', async () => {
    const envApp = await createTestApp({ VIDEO_RETENTION_HOURS: '48', SIGNUP_CREDITS: '' });
    try {
      const cookie = await signIn(envApp.app, await createUser(envApp.db, { isAdmin: true }));
      const fixed = await putRules({ videoHours: 12, signupCreditsHundredths: 0 }, cookie, envApp.app);
      expect(fixed.statusCode).toBe(409);
      expect(fixed.json().message).toContain('VIDEO_RETENTION_HOURS');
      const saved = await putRules({ signupCreditsHundredths: 0 }, cookie, envApp.app);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<InstallationSettings>().rules).toMatchObject({
        videoHours: { value: 48, source: 'environment' },
        signupCreditsHundredths: { value: 0, source: 'saved' },
      });
    } finally {
      await envApp.close();
    }
  });
});
