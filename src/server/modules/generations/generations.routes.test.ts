import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import type { GenerationJob, GenerationRecord, ModelInfo } from '../../../shared/generations';
import { creditLedger, generations, uploads, users } from '../../db/schema';
import { fail } from './lifecycle.repository';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
beforeAll(async () => {
  // No worker runs in this file: jobs stay pending, which is what these rules are about.
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, overrides);
  return { user, cookie: await signIn(t.app, user) };
}

const generate = (cookie: string, body: object) => injectJson(t.app, 'POST', '/api/video-generation', { cookie, body });
const balanceOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]?.creditsHundredths;
const ledgerOf = (id: string) => t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));

describe('POST /api/video-generation: its answer', () => {
  it("carries the new job's place in the queue, as the live event about it does", async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 1000 });
    const first = (await generate(cookie, { prompt: 'A first lantern' })).json<GenerationRecord>();
    const second = (await generate(cookie, { prompt: 'A second lantern' })).json<GenerationRecord>();
    expect(first.status).toBe('pending');
    expect(first.queuePosition).toBeGreaterThanOrEqual(1);
    expect(second.queuePosition).toBe((first.queuePosition ?? 0) + 1);
  });

  it("carries the record's version as the lists have it, and a later change of the job moves it", async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 1000 });
    const created = (await generate(cookie, { prompt: 'A versioned lantern' })).json<GenerationRecord>();
    const listed = async () => {
      const records = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>();
      const jobs = (await injectJson(t.app, 'GET', '/api/video-generation-jobs', { cookie })).json<GenerationJob[]>();
      return [records.find((r) => r.id === created.id)?.version, jobs.find((j) => j.id === created.id)?.version];
    };
    expect(created.version).toEqual(expect.any(Number));
    expect(await listed()).toEqual([created.version, created.version]);
    await fail(t.db, created.id, null, 'The engine fell over');
    const [record, job] = await listed();
    expect(record).toBeGreaterThan(created.version ?? Infinity);
    expect(job).toBe(record);
  });
});

describe('POST /api/video-generation: what it refuses', () => {
  it('needs a session and a description', async () => {
    expect((await injectJson(t.app, 'POST', '/api/video-generation', { body: { prompt: 'x' } })).statusCode).toBe(401);
    const { cookie } = await signedInUser({ creditsHundredths: 1000 });
    for (const prompt of ['', '   ', undefined]) {
      const response = await generate(cookie, { prompt });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'prompt_required', message: 'Please provide a text description' });
    }
  });

  it('refuses advanced settings that are not a JSON object, and bad values of known keys', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 1000 });
    for (const jsonPrompt of ['{not json', '[1,2]', '"text"', '42']) {
      const response = await generate(cookie, { prompt: 'A cat', jsonPrompt });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Advanced settings must be valid JSON');
    }
    const bad = await generate(cookie, { prompt: 'A cat', jsonPrompt: '{"aspectRatio":"4:3"}' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('aspectRatio');
    expect(await balanceOf(user.id)).toBe(1000);
  });

  it('refuses a model this server cannot run, and unknown models', async () => {
    const { cookie } = await signedInUser({ creditsHundredths: 1000 });
    const veo = await generate(cookie, { prompt: 'A cat', model: 'veo3' });
    expect(veo.statusCode).toBe(400);
    expect(veo.json()).toMatchObject({ code: 'model_unavailable', message: expect.stringContaining('Gemini') });
    expect((await generate(cookie, { prompt: 'A cat', model: 'sora' })).statusCode).toBe(400);
  });

  it("refuses another user's upload and an upload of the wrong kind", async () => {
    const owner = await signedInUser();
    const objectPath = await uploadFile(t.app, owner.cookie, PNG);
    const { user, cookie } = await signedInUser({ creditsHundredths: 1000 });
    const stolen = await generate(cookie, { prompt: 'A cat', imageFile: objectPath });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('invalid_upload');
    const mine = await uploadFile(t.app, cookie, PNG);
    const wrongKind = await generate(cookie, { prompt: 'A cat', audioFile: mine });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().code).toBe('wrong_input_kind');
    expect(wrongKind.json().message).toBe('audioFile must be an audio track; that upload is an image.');
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
  });

  it('answers 402 with the cost and the balance when credits are short, and writes nothing', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 250 });
    const response = await generate(cookie, { prompt: 'A song about the sea', hasAudio: true });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ code: 'insufficient_credits', message: 'Need 3 credits. You have 2.5.' });
    expect(await balanceOf(user.id)).toBe(250);
    expect(await ledgerOf(user.id)).toHaveLength(0);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(0);
  });
});

describe('POST /api/video-generation: charging', () => {
  it('charges the server price in the same transaction as the job, with one ledger row', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 350 });
    const image = await uploadFile(t.app, cookie, PNG);
    const response = await generate(cookie, {
      prompt: '  A cat walking on the beach  ',
      jsonPrompt: '{"aspectRatio":"9:16","negativePrompt":"blurry","seed":7,"resolution":"480p","style":"ignored"}',
      imageFile: image,
      hasAudio: true,
      duration: 10,
    });
    expect(response.statusCode).toBe(201);
    const record = response.json<GenerationRecord>();
    expect(record).toMatchObject({
      prompt: 'A cat walking on the beach',
      status: 'pending',
      creditsUsed: 3,
      duration: 10,
      model: 'local',
    });
    expect(await balanceOf(user.id)).toBe(50);
    const ledger = await ledgerOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ deltaHundredths: -300, kind: 'charge', reference: `generation:${record.id}` });
    const [row] = await t.db.select().from(generations).where(eq(generations.id, record.id));
    expect(row?.settings).toEqual({ aspectRatio: '9:16', negativePrompt: 'blurry', seed: 7, resolution: '480p' });
    expect(row?.inputs.image?.contentType).toBe('image/png');
  });

  it('charges 0.5 in economy mode and nothing to unlimited users', async () => {
    const economy = await signedInUser({ creditsHundredths: 100 });
    const cheap = await generate(economy.cookie, { prompt: 'A quick sketch', isEconomy: true });
    expect(cheap.json().creditsUsed).toBe(0.5);
    expect(await balanceOf(economy.user.id)).toBe(50);
    const unlimited = await signedInUser({ subscriptionStatus: 'premium_unlimited' });
    const free = await generate(unlimited.cookie, { prompt: 'A song', hasAudio: true });
    expect(free.statusCode).toBe(201);
    expect(free.json().creditsUsed).toBe(0);
    expect(await ledgerOf(unlimited.user.id)).toHaveLength(0);
  });

  it('accepts exactly 3 of 20 concurrent requests from a user whose credits cover 3', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 300 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => generate(cookie, { prompt: `Video ${i}` })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.every((s) => s === 201 || s === 402 || s === 429)).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await ledgerOf(user.id)).toHaveLength(3);
    expect(await t.db.select().from(generations).where(eq(generations.userId, user.id))).toHaveLength(3);
  });

  it('allows at most 3 unfinished jobs per user (429), even for unlimited users', async () => {
    const { cookie } = await signedInUser({ subscriptionStatus: 'premium_unlimited' });
    for (let i = 0; i < 3; i += 1) expect((await generate(cookie, { prompt: `Job ${i}` })).statusCode).toBe(201);
    const fourth = await generate(cookie, { prompt: 'One more' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('too_many_unfinished_jobs');
  });
});

describe('record and job views', () => {
  it('present the same rows, own rows only, newest first; /recent answers 3', async () => {
    const me = await signedInUser({ subscriptionStatus: 'premium_unlimited' });
    const other = await signedInUser({ subscriptionStatus: 'premium_unlimited' });
    await generate(other.cookie, { prompt: 'Not yours' });
    const ids: string[] = [];
    for (const prompt of ['First', 'Second', 'Third'])
      ids.push((await generate(me.cookie, { prompt, hasAudio: true })).json().id);
    // Finish one so a fourth fits under the limit.
    const [first] = ids;
    if (!first) throw new Error('no first job');
    await t.db
      .update(generations)
      .set({ status: 'failed', errorMessage: 'Engine fell over' })
      .where(eq(generations.id, first));
    ids.push((await generate(me.cookie, { prompt: 'Fourth' })).json().id);

    const records = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie: me.cookie })).json<
      GenerationRecord[]
    >();
    expect(records.map((r) => r.prompt)).toEqual(['Fourth', 'Third', 'Second', 'First']);
    expect(Object.keys(records[0] ?? {}).sort()).toEqual(
      [
        'createdAt',
        'creditsUsed',
        'duration',
        'errorMessage',
        'expiresAt',
        'hasAudio',
        'id',
        'inputs',
        'isEconomy',
        'kept',
        'model',
        'outputVideoUrl',
        'posterUrl',
        // Reports and takedown: the shareable watch page.
        'watchPath',
        'progress',
        'progressStage',
        'prompt',
        'settings',
        'status',
        // Live progress (decision 011): elapsed time, queue place and estimates.
        'startedAt',
        'queuePosition',
        'estimatedStartAt',
        'estimatedReadyAt',
        // Which of two copies is newer.
        'version',
        // Extend and Variations: the video it grew from, and the batch it was made in.
        'parentId',
        'groupId',
        // Content Credentials: what the stored video's signed manifest says (null until it is stored).
        'credentials',
        // Drafts (issue 48): made on the cheapest model, offered to be finished.
        'isDraft',
      ].sort(),
    );
    const jobs = (await injectJson(t.app, 'GET', '/api/video-generation-jobs', { cookie: me.cookie })).json<
      GenerationJob[]
    >();
    expect(jobs.map((j) => j.textPrompt)).toEqual(['Fourth', 'Third', 'Second', 'First']);
    expect(jobs[3]).toMatchObject({
      status: 'failed',
      errorMessage: 'Engine fell over',
      hasAudio: true,
      duration: 10,
      outputVideoUrl: null,
    });
    const recent = (await injectJson(t.app, 'GET', '/api/video-generation-jobs/recent', { cookie: me.cookie })).json<
      GenerationJob[]
    >();
    expect(recent.map((j) => j.textPrompt)).toEqual(['Fourth', 'Third', 'Second']);
    for (const url of ['/api/video-generation', '/api/video-generation-jobs', '/api/video-generation-jobs/recent']) {
      expect((await injectJson(t.app, 'GET', url)).statusCode).toBe(401);
    }
  });
});

describe('GET /api/video-generation-jobs and /recent', () => {
  it("answer the job view of the list's records: the same values, with the prompt as textPrompt", async () => {
    const me = await signedInUser({ creditsHundredths: 1000 });
    const done = (await generate(me.cookie, { prompt: 'A finished kite', hasAudio: true })).json<GenerationRecord>().id;
    const expiresAt = new Date(Date.now() + 3_600_000);
    await t.db
      .update(generations)
      .set({
        status: 'completed',
        progress: 100,
        outputKey: `outputs/${me.user.id}/kite.mp4`,
        posterKey: `outputs/${me.user.id}/kite.jpg`,
        outputDuration: 9.96,
        expiresAt,
      })
      .where(eq(generations.id, done));
    for (const prompt of ['A waiting kite', 'Another waiting kite', 'A third waiting kite'])
      await generate(me.cookie, { prompt });

    const records = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie: me.cookie })).json<
      GenerationRecord[]
    >();
    const jobs = (await injectJson(t.app, 'GET', '/api/video-generation-jobs', { cookie: me.cookie })).json<
      GenerationJob[]
    >();
    const recent = (await injectJson(t.app, 'GET', '/api/video-generation-jobs/recent', { cookie: me.cookie })).json<
      GenerationJob[]
    >();
    const asJob = (record: GenerationRecord) => ({
      id: record.id,
      textPrompt: record.prompt,
      status: record.status,
      createdAt: record.createdAt,
      creditsUsed: record.creditsUsed,
      duration: record.duration,
      hasAudio: record.hasAudio,
      progress: record.progress,
      errorMessage: record.errorMessage,
      outputVideoUrl: record.outputVideoUrl,
      expiresAt: record.expiresAt,
      version: record.version,
    });
    expect(jobs).toEqual(records.map(asJob));
    expect(recent).toEqual(records.slice(0, 3).map(asJob));
    expect(jobs.find((job) => job.id === done)).toMatchObject({
      status: 'completed',
      duration: 10,
      outputVideoUrl: expect.any(String),
      expiresAt: expiresAt.toISOString(),
    });
  });
});

describe('DELETE /api/video-generation/:id', () => {
  it("deletes one's own record and its inputs; anyone else's is a 404", async () => {
    const me = await signedInUser({ creditsHundredths: 100 });
    const other = await signedInUser();
    const image = await uploadFile(t.app, me.cookie, PNG);
    const id = (await generate(me.cookie, { prompt: 'Delete me', imageFile: image })).json<GenerationRecord>().id;

    const theirs = await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie: other.cookie });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await injectJson(t.app, 'DELETE', '/api/video-generation/not-a-uuid', { cookie: me.cookie })).statusCode,
    ).toBe(404);
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`)).statusCode).toBe(401);

    const mine = await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie: me.cookie });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ message: 'Video deleted' });
    expect(await t.db.select().from(generations).where(eq(generations.id, id))).toHaveLength(0);
    expect(await t.db.select().from(uploads).where(eq(uploads.userId, me.user.id))).toHaveLength(0);
    expect(
      (await injectJson(t.app, 'GET', image.replace('/objects/', '/api/objects/'), { cookie: me.cookie })).statusCode,
    ).toBe(404);
    expect((await injectJson(t.app, 'DELETE', `/api/video-generation/${id}`, { cookie: me.cookie })).statusCode).toBe(
      404,
    );
  });
});

describe('GET /api/models', () => {
  it('lists every model with whether this server can run it; the local engine is the default without keys', async () => {
    const { cookie } = await signedInUser();
    const { models } = (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>();
    expect(models.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        'kling-v2v',
        'local',
        'veo3',
        'fal-veo3',
        'replicate-veo3',
        'comfyui-wan22-ti2v-5b',
        'comfyui-ltxv',
      ]),
    );
    expect(models.find((m) => m.id === 'local')).toMatchObject({
      available: true,
      isDefault: true,
      isPreview: true,
      reason: null,
    });
    expect(models.find((m) => m.id === 'veo3')).toMatchObject({ available: false, durations: [4, 6, 8] });
    expect(models.find((m) => m.id === 'kling-v2v')?.reason).toContain('Kling');
  });

  it("names the operator's variables (FAL_KEY ...) to administrators only", async () => {
    const customer = await signedInUser();
    const admin = await signedInUser({ isAdmin: true });
    const read = async (cookie: string) =>
      (await injectJson(t.app, 'GET', '/api/models', { cookie })).json<{ models: ModelInfo[] }>().models;
    const forCustomer = await read(customer.cookie);
    expect(JSON.stringify(forCustomer)).not.toMatch(/FAL_KEY|REPLICATE_API_TOKEN|COMFYUI_URL|[A-Z]+_[A-Z]+_?[A-Z]*\)/);
    expect(forCustomer.find((m) => m.id === 'fal-veo3')?.reason).toBe(
      'Not available on this server: it has no fal.ai key.',
    );
    const forAdmin = await read(admin.cookie);
    expect(forAdmin.find((m) => m.id === 'fal-veo3')?.reason).toContain('(FAL_KEY)');

    // Asking for such a model says what is missing, without the variable.
    const refused = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: customer.cookie,
      body: { description: 'A kite over the sea', model: 'fal-veo3' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain('FAL_KEY');
  });
});
