import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { type FakeServer, type Reply, startFakeServer } from '../../../../tests/support/fake-provider';
import { makeMediaFixtures } from '../../../../tests/support/media';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));
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

    const blank = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ code: 'prompt_required', message: 'Please provide a text description first' });
    const long = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'x'.repeat(2001) } });
    expect(long.statusCode).toBe(400);
    expect((await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { body: { userPrompt: 'x' } })).statusCode).toBe(401);
  });

  it("analyses the caller's own image and refuses anyone else's, non-images and outside URLs", async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    const response = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', {
      cookie,
      body: { imageUrl: image, analysisType: 'comprehensive', generatePrompt: true },
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: { sceneDescription: string; lighting: { type: string }; style: { mood: string }; suggestedPrompt: string } }>();
    expect(data.sceneDescription).toMatch(/image/);
    expect(data.lighting.type.length).toBeGreaterThan(3);
    expect(data.style.mood.length).toBeGreaterThan(3);
    expect(data.suggestedPrompt.length).toBeGreaterThan(20);

    const stranger = await userOf(t);
    const theirs = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie: stranger, body: { imageUrl: image } });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().code).toBe('invalid_upload');
    const outside = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie, body: { imageUrl: 'http://169.254.169.254/latest' } });
    expect(outside.statusCode).toBe(400);
    const audio = await uploadFile(t.app, cookie, (await makeMediaFixtures()).audio);
    const notImage = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie, body: { imageUrl: audio } });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe('not_an_image');
  });

  it('limits each user to 30 calls a minute', async () => {
    const busy = await userOf(t);
    for (let i = 0; i < 30; i += 1) {
      expect((await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie: busy, body: { userPrompt: `Try ${i}` } })).statusCode).toBe(200);
    }
    const over = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie: busy, body: { userPrompt: 'One more' } });
    expect(over.statusCode).toBe(429);
    // Another user is not affected.
    expect((await injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'Mine' } })).statusCode).toBe(200);
  });
});

describe('AI assist with Gemini (a local server speaking its wire format)', () => {
  let t: TestApp;
  let fake: FakeServer;
  let cookie: string;
  let replies: Reply[];
  const answer = (value: unknown, extra: object = {}): Reply => ({
    status: 200,
    json: { candidates: [{ content: { role: 'model', parts: [{ text: typeof value === 'string' ? value : JSON.stringify(value) }] }, finishReason: 'STOP', ...extra }] },
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

  const enhance = () => injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'A kite over dunes' } });

  it('asks generateContent for JSON and answers what Gemini wrote', async () => {
    replies = [answer({ enhancedPrompt: 'A kite over dunes, wide aerial shot', improvements: ['Added an aerial shot'], confidence: 91 })];
    const response = await enhance();
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ enhancedPrompt: 'A kite over dunes, wide aerial shot', improvements: ['Added an aerial shot'], confidence: 91 });
    const [request] = fake.received;
    expect(request?.path).toBe(`/v1beta/models/${TEXT_MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe('gemini-test-key');
    const body = JSON.parse(request?.body ?? '{}') as { contents: { parts: { text: string }[] }[]; generationConfig: { responseMimeType: string; responseJsonSchema: object } };
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(body.generationConfig.responseJsonSchema).toBeDefined();
    expect(body.contents[0]?.parts[0]?.text).toContain('A kite over dunes');
  });

  it('sends the uploaded image inline for analysis', async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    replies = [
      answer({
        sceneDescription: 'A tabby cat looking at the camera',
        objects: [{ name: 'cat', confidence: 97 }],
        lighting: { type: 'soft daylight' },
        style: { mood: 'calm' },
        suggestedPrompt: 'A tabby cat blinks slowly',
      }),
    ];
    const response = await injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie, body: { imageUrl: image } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ objects: [{ name: 'cat', confidence: 97 }], lighting: { type: 'soft daylight' } });
    const body = JSON.parse(fake.received[0]?.body ?? '{}') as { contents: { parts: { inlineData?: { mimeType: string; data: string } }[] }[] };
    const inline = body.contents[0]?.parts.find((p) => p.inlineData)?.inlineData;
    expect(inline?.mimeType).toBe('image/png');
    expect(Buffer.from(inline?.data ?? '', 'base64').equals(PNG)).toBe(true);
  });

  it('turns a blocked answer into a clear 502', async () => {
    replies = [{ status: 200, json: { promptFeedback: { blockReason: 'SAFETY' } } }];
    const blocked = await enhance();
    expect(blocked.statusCode).toBe(502);
    expect(blocked.json()).toEqual({ code: 'ai_blocked', message: 'The AI refused this request: safety.' });
    replies = [answer('', { finishReason: 'SAFETY' })];
    expect((await enhance()).json().code).toBe('ai_blocked');
  });

  it('retries a 429, and answers 503 when Gemini stays busy', async () => {
    const busy: Reply = { status: 429, json: { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } } };
    replies = [busy, answer({ enhancedPrompt: 'ok', improvements: [], confidence: 80 })];
    expect((await enhance()).statusCode).toBe(200);
    expect(fake.received).toHaveLength(2);
    replies = [busy, busy, busy];
    const gaveUp = await enhance();
    expect(gaveUp.statusCode).toBe(503);
    expect(gaveUp.json().code).toBe('ai_busy');
    expect(gaveUp.headers['retry-after']).toBe('60');
  });

  it('turns malformed JSON or a wrong shape in the text into a 502, never a crash', async () => {
    replies = [answer('{"enhancedPrompt": "unterminated')];
    const malformed = await enhance();
    expect(malformed.statusCode).toBe(502);
    expect(malformed.json().code).toBe('ai_bad_answer');
    replies = [answer({ enhanced: 'wrong keys' })];
    expect((await enhance()).json().code).toBe('ai_bad_answer');
  });
});
