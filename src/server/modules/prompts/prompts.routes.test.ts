import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { type FakeServer, type Reply, startFakeServer } from '../../../../tests/support/fake-provider';
import { makeMediaFixtures } from '../../../../tests/support/media';
import type { ImageAnalysis } from '../../../shared/ai';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));
/** 1x1 GIF: an image Gemini does not take inline. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
/** 1x1 24-bit BMP: an image the upload accepts but the analysis cannot decode. */
const BMP = Buffer.from('Qk06AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAAAQAAAATCwAAEwsAAAAAAAAAAAAAAAD/AA==', 'base64');
const TEXT_MODEL = 'gemini-test-flash';

async function userOf(t: TestApp) {
  return signIn(t.app, await createUser(t.db));
}

describe('AI assist without a Gemini key (local)', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = await userOf(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('enhances locally, keeping the words, and refuses blank, too long and signed-out requests', async () => {
    const response = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: 'A dog surfing', style: 'cinematic', duration: 'medium', mood: 'energetic' },
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: { enhancedPrompt: string; improvements: string[]; confidence: number } }>();
    expect(data.enhancedPrompt.startsWith('A dog surfing.')).toBe(true);
    expect(data.improvements.length).toBeGreaterThan(3);
    expect(data.improvements.some((i) => i.startsWith('Added sound cues'))).toBe(true);

    // Issue 34: the user's slow zoom in and soft piano are kept; nothing of those kinds is added.
    const mine = 'A slow zoom in on a cat on a windowsill, soft piano';
    const kept = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: mine, style: 'cinematic', duration: 'medium', mood: 'energetic' },
    });
    const keptData = kept.json<{ data: { enhancedPrompt: string; improvements: string[] } }>().data;
    expect(keptData.enhancedPrompt.startsWith(mine)).toBe(true);
    expect(keptData.improvements.map((i) => i.split(':')[0])).toEqual([
      'Added shot type and framing',
      'Added lighting',
      'Added lens and style',
    ]);
    expect(keptData.enhancedPrompt.slice(mine.length)).not.toMatch(/wide|establishing|lively|sound effects/i);

    const blank = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ code: 'prompt_required', message: 'Please provide a text description first' });
    const long = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: 'x'.repeat(2001) },
    });
    expect(long.statusCode).toBe(400);
    expect(
      (await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { body: { userPrompt: 'x' } })).statusCode,
    ).toBe(401);
  });

  it("analyses the caller's own image locally, from its statistics and the detector", async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    const response = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', {
      cookie,
      body: { imageUrl: image, analysisType: 'comprehensive', generatePrompt: true },
    });
    expect(response.statusCode).toBe(200);
    const { success, data } = response.json<{ success: boolean; data: ImageAnalysis }>();
    expect(success).toBe(true);
    for (const text of [data.sceneDescription, data.lighting.type, data.style.mood, data.suggestedPrompt]) {
      expect(typeof text).toBe('string');
      expect(text.trim().length).toBeGreaterThan(0);
    }
    expect(data.sceneDescription).toMatch(/landscape image/);
    expect(data.objects.length).toBeLessThanOrEqual(6);
    for (const object of data.objects) {
      expect(object.name.length).toBeGreaterThan(0);
      expect(object.confidence).toBeGreaterThanOrEqual(0);
      expect(object.confidence).toBeLessThanOrEqual(100);
    }

    const noPrompt = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', {
      cookie,
      body: { imageUrl: image, generatePrompt: false },
    });
    expect(noPrompt.statusCode).toBe(200);
    expect(noPrompt.json<{ data: ImageAnalysis }>().data.suggestedPrompt).toBe('');
  });

  it("refuses anyone else's upload, outside URLs, audio and video, unreadable images and signed-out callers", async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    const analyze = (imageUrl: string, as: string | null = cookie) =>
      injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie: as ?? undefined, body: { imageUrl } });

    const theirs = await analyze(image, await userOf(t));
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().code).toBe('invalid_upload');
    const outside = await analyze('http://169.254.169.254/latest');
    expect(outside.statusCode).toBe(400);
    expect(outside.json().code).toBe('invalid_upload');
    const { audio, video } = await makeMediaFixtures();
    for (const media of [audio, video]) {
      const notImage = await analyze(await uploadFile(t.app, cookie, media));
      expect(notImage.statusCode).toBe(400);
      expect(notImage.json().code).toBe('not_an_image');
    }
    // A BMP is an image to the upload check, but not one the analysis can decode: a 400, not a crash.
    const bmp = await analyze(await uploadFile(t.app, cookie, BMP));
    expect(bmp.statusCode).toBe(400);
    expect(bmp.json().code).toBe('unreadable_image');
    expect((await analyze(image, null)).statusCode).toBe(401);
  });

  it('limits each user to 30 calls a minute on each endpoint, with 429 and Retry-After beyond', async () => {
    const busy = await userOf(t);
    for (let i = 0; i < 30; i += 1) {
      expect(
        (
          await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
            cookie: busy,
            body: { userPrompt: `Try ${i}` },
          })
        ).statusCode,
      ).toBe(200);
    }
    const over = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie: busy,
      body: { userPrompt: 'One more' },
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not affected.
    expect(
      (await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'Mine' } }))
        .statusCode,
    ).toBe(200);

    // Refused analyses count too, so guessing references is limited as well.
    for (let i = 0; i < 30; i += 1) {
      const guess = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', {
        cookie: busy,
        body: { imageUrl: `/objects/uploads/x/${i}` },
      });
      expect(guess.statusCode).toBe(400);
    }
    const overAnalysis = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', {
      cookie: busy,
      body: { imageUrl: '/objects/uploads/x/y' },
    });
    expect(overAnalysis.statusCode).toBe(429);
  });
});

describe('AI assist with Gemini (a local server speaking its wire format)', () => {
  let t: TestApp;
  let fake: FakeServer;
  let cookie: string;
  let replies: Reply[];
  const answer = (value: unknown, extra: object = {}): Reply => ({
    status: 200,
    json: {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: typeof value === 'string' ? value : JSON.stringify(value) }] },
          finishReason: 'STOP',
          ...extra,
        },
      ],
    },
  });

  beforeAll(async () => {
    fake = await startFakeServer();
    fake.route = () => replies.shift() ?? { status: 500, json: { error: { code: 500, message: 'no reply queued' } } };
    t = await createTestApp(
      { GEMINI_API_KEY: 'gemini-test-key', GEMINI_BASE_URL: fake.baseUrl, GEMINI_TEXT_MODEL: TEXT_MODEL },
      undefined,
      { aiRetryDelayMs: 5 },
    );
    cookie = await userOf(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.received = [];
    replies = [];
  });

  const enhance = () =>
    injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'A kite over dunes' } });
  const analyze = (imageUrl: string, extra: object = {}) =>
    injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie, body: { imageUrl, ...extra } });
  type SentBody = {
    contents: { role: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
    systemInstruction: { parts: { text: string }[] };
    generationConfig: { responseMimeType: string; responseJsonSchema: { properties: Record<string, unknown> } };
  };
  const sent = (index = 0) => JSON.parse(fake.received[index]?.body ?? '{}') as SentBody;
  const cat = {
    sceneDescription: 'A tabby cat looking at the camera',
    objects: [{ name: 'cat', confidence: 97 }],
    lighting: { type: 'soft daylight' },
    style: { mood: 'calm' },
    suggestedPrompt: 'A tabby cat blinks slowly',
  };

  it('asks generateContent for JSON and answers what Gemini wrote', async () => {
    replies = [
      answer({
        enhancedPrompt: 'A kite over dunes, wide aerial shot',
        improvements: [' Added an aerial shot ', ''],
        confidence: 91,
      }),
    ];
    const response = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: '  A kite over dunes ', style: 'anime', duration: 'short', mood: 'energetic' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        enhancedPrompt: 'A kite over dunes, wide aerial shot',
        improvements: ['Added an aerial shot'],
        confidence: 91,
      },
      resultId: expect.any(String),
    });
    const [request] = fake.received;
    expect(request?.path).toBe(`/v1beta/models/${TEXT_MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe('gemini-test-key');
    const body = sent();
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(Object.keys(body.generationConfig.responseJsonSchema.properties)).toEqual([
      'enhancedPrompt',
      'improvements',
      'confidence',
    ]);
    expect(body.systemInstruction.parts[0]?.text).toMatch(/exactly as written/);
    // Issue 34: the model keeps the user's own shot, move, pace, mood and sound and adds only what is missing.
    expect(body.systemInstruction.parts[0]?.text).toMatch(
      /Keep every choice the user made: shot or framing, camera move .*pace, mood and sound/,
    );
    expect(body.systemInstruction.parts[0]?.text).toMatch(/never anything that contradicts them/);
    const text = body.contents[0]?.parts[0]?.text ?? '';
    expect(text).toContain('Description: A kite over dunes');
    expect(text).toContain('Style: anime');
    expect(text).toContain('Duration: short');
    expect(text).toContain('Mood: energetic');
  });

  it('refuses a blank prompt without calling Gemini', async () => {
    const blank = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: ' \n ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().code).toBe('prompt_required');
    expect(fake.received).toHaveLength(0);
  });

  it('sends the uploaded image inline for analysis, to the text model, with the analysis schema', async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    replies = [answer(cat)];
    const response = await analyze(image, { analysisType: 'comprehensive', generatePrompt: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { ...cat, detectorNote: null },
      resultId: expect.any(String),
    });
    const [request] = fake.received;
    expect(request?.path).toBe(`/v1beta/models/${TEXT_MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe('gemini-test-key');
    const body = sent();
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(Object.keys(body.generationConfig.responseJsonSchema.properties)).toEqual([
      'sceneDescription',
      'objects',
      'lighting',
      'style',
      'suggestedPrompt',
    ]);
    const inline = body.contents[0]?.parts.find((p) => p.inlineData)?.inlineData;
    expect(inline?.mimeType).toBe('image/png');
    expect(Buffer.from(inline?.data ?? '', 'base64').equals(PNG)).toBe(true);
  });

  it("tidies Gemini's objects (fractions as percentages, most confident first, at most 6) and honours generatePrompt: false", async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    const names = ['cat', 'sofa', 'cushion', 'lamp', 'rug', 'book', 'plant', 'window'];
    replies = [
      answer({
        ...cat,
        objects: names.map((name, i) => ({ name, confidence: 0.2 + i * 0.1 })),
        suggestedPrompt: 'ignored',
      }),
    ];
    const response = await analyze(image, { generatePrompt: false });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: ImageAnalysis }>();
    expect(data.objects).toEqual([
      { name: 'window', confidence: 90 },
      { name: 'plant', confidence: 80 },
      { name: 'book', confidence: 70 },
      { name: 'rug', confidence: 60 },
      { name: 'lamp', confidence: 50 },
      { name: 'cushion', confidence: 40 },
    ]);
    expect(data.suggestedPrompt).toBe('');
    expect(sent().contents[0]?.parts[0]?.text).toMatch(/Leave the suggested prompt empty/);
  });

  it('analyses locally an image Gemini cannot take inline (a GIF)', async () => {
    const gif = await uploadFile(t.app, cookie, GIF);
    const response = await analyze(gif);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: ImageAnalysis }>().data.sceneDescription).toMatch(/square image/);
    expect(fake.received).toHaveLength(0);
  });

  it('turns a blocked answer into a clear 502', async () => {
    replies = [{ status: 200, json: { promptFeedback: { blockReason: 'SAFETY' } } }];
    const blocked = await enhance();
    expect(blocked.statusCode).toBe(502);
    expect(blocked.json()).toEqual({ code: 'ai_blocked', message: 'The AI refused this request: safety.' });
    replies = [answer('', { finishReason: 'SAFETY' })];
    const stopped = await enhance();
    expect(stopped.statusCode).toBe(502);
    expect(stopped.json()).toEqual({ code: 'ai_blocked', message: 'The AI refused this request: safety.' });
    const image = await uploadFile(t.app, cookie, PNG);
    replies = [answer('', { finishReason: 'IMAGE_SAFETY' })];
    const refusedImage = await analyze(image);
    expect(refusedImage.statusCode).toBe(502);
    expect(refusedImage.json()).toEqual({ code: 'ai_blocked', message: 'The AI refused this request: image safety.' });
  });

  it('retries a 429, and answers 503 with Retry-After when Gemini stays busy', async () => {
    const busy: Reply = { status: 429, json: { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } } };
    replies = [busy, answer({ enhancedPrompt: 'ok', improvements: [], confidence: 80 })];
    const retried = await enhance();
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toEqual({ enhancedPrompt: 'ok', improvements: [], confidence: 80 });
    expect(fake.received).toHaveLength(2);
    fake.received = [];
    replies = [busy, busy, busy];
    const gaveUp = await enhance();
    expect(gaveUp.statusCode).toBe(503);
    expect(gaveUp.json()).toEqual({
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a minute.',
    });
    expect(gaveUp.headers['retry-after']).toBe('60');
    expect(fake.received).toHaveLength(3);
  });

  it('answers 502 when Gemini keeps failing, without echoing its error', async () => {
    const broken: Reply = {
      status: 500,
      json: { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } },
    };
    replies = [broken, broken, broken];
    const failed = await enhance();
    expect(failed.statusCode).toBe(502);
    expect(failed.json().code).toBe('ai_unavailable');
    expect(failed.body).not.toContain('Internal error encountered');
    expect(failed.body).not.toContain('gemini-test-key');
  });

  it('turns malformed JSON or a wrong shape in the text into a 502, never a crash', async () => {
    replies = [answer('{"enhancedPrompt": "unterminated')];
    const malformed = await enhance();
    expect(malformed.statusCode).toBe(502);
    expect(malformed.json()).toEqual({
      code: 'ai_bad_answer',
      message: 'The AI sent an answer we could not read. Please try again.',
    });
    replies = [answer({ enhanced: 'wrong keys' })];
    const wrong = await enhance();
    expect(wrong.statusCode).toBe(502);
    expect(wrong.json().code).toBe('ai_bad_answer');
    const image = await uploadFile(t.app, cookie, PNG);
    replies = [answer({ ...cat, lighting: 'soft' })];
    const badAnalysis = await analyze(image);
    expect(badAnalysis.statusCode).toBe(502);
    expect(badAnalysis.json().code).toBe('ai_bad_answer');
  });
});
