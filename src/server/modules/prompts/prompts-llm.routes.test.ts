import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import {
  chatAnswer,
  chatError,
  chatRefusal,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../../../../tests/support/fake-openai';
import { type FakeServer, startFakeServer } from '../../../../tests/support/fake-provider';
import type { ImageAnalysis } from '../../../shared/ai';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));
/** 1x1 GIF: an image sent to no model (analysed here). */
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const KEY = 'sk-self-hosted-secret-42';
const MODEL = 'llava-test';

type SentBody = {
  model: string;
  messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
  response_format: { type: string; json_schema: { name: string; schema: { properties: Record<string, unknown> } } };
};

describe('AI assist through an OpenAI-compatible server (LLM_BASE_URL), with a Gemini key set too', () => {
  let t: TestApp;
  let llm: FakeOpenAi;
  let gemini: FakeServer;
  let cookie: string;
  const enhance = () =>
    injectJson(t.app, 'POST', '/api/prompts/enhance-text', { cookie, body: { userPrompt: 'A kite over dunes' } });
  const analyze = (imageUrl: string, extra: object = {}) =>
    injectJson(t.app, 'POST', '/api/prompts/analyze-image', { cookie, body: { imageUrl, ...extra } });
  const sent = (index = 0) => llm.received[index]?.body as SentBody;
  const harbour = {
    sceneDescription: 'Fishing boats moored in a small harbour at dusk',
    objects: [
      { name: 'boat', confidence: 93 },
      { name: 'pier', confidence: 71 },
    ],
    lighting: { type: 'low golden sun' },
    style: { mood: 'peaceful' },
    suggestedPrompt: 'Boats rock gently as the harbour lights come on',
  };

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    llm.apiKey = KEY;
    // Gemini stays configured (for Veo); AI Enhance and image analysis must not reach it.
    gemini = await startFakeServer();
    gemini.route = () => ({ status: 500, json: { error: { code: 500, message: 'Gemini was asked' } } });
    t = await createTestApp(
      {
        GEMINI_API_KEY: 'gemini-test-key',
        GEMINI_BASE_URL: gemini.baseUrl,
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: MODEL,
        LLM_API_KEY: KEY,
        LLM_TIMEOUT_SECONDS: '2',
      },
      undefined,
      { aiRetryDelayMs: 5 },
    );
    cookie = await signIn(t.app, await createUser(t.db));
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await gemini.close();
  });
  beforeEach(() => {
    llm.received = [];
    llm.replies = [];
    gemini.received = [];
  });

  it("enhances with the server's model: system and user messages, the enhancement's JSON schema, the key as Bearer", async () => {
    const enhanced = 'A lighthouse in a storm, slow push-in, lightning flashes';
    llm.replies = [chatAnswer({ enhancedPrompt: enhanced, improvements: ['Added a push-in', ' '], confidence: 0.9 })];
    const response = await injectJson(t.app, 'POST', '/api/prompts/enhance-text', {
      cookie,
      body: { userPrompt: ' A lighthouse in a storm', style: 'realistic', duration: 'long', mood: 'dramatic' },
    });
    expect(response.statusCode).toBe(200);
    // A fraction for confidence is read as a percentage, blank improvements are dropped.
    const expected = { enhancedPrompt: enhanced, improvements: ['Added a push-in'], confidence: 90 };
    expect(response.json()).toEqual({ success: true, data: expected, resultId: expect.any(String) });
    expect(llm.received.map((r) => r.problem)).toEqual([null]);
    expect(llm.received[0]?.path).toBe('/v1/chat/completions');
    expect(llm.received[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = sent();
    expect(body.model).toBe(MODEL);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0]?.content).toMatch(/exactly as written/);
    // Issue 34: the model keeps the user's own shot, move, pace, mood and sound and adds only what is missing.
    expect(body.messages[0]?.content).toMatch(
      /Keep every choice the user made: shot or framing, camera move .*pace, mood and sound/,
    );
    expect(body.messages[0]?.content).toMatch(/never anything that contradicts them/);
    const text = body.messages[1]?.content;
    expect(text).toContain('Description: A lighthouse in a storm');
    expect(text).toContain('Style: realistic');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('prompt_enhancement');
    expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual([
      'enhancedPrompt',
      'improvements',
      'confidence',
    ]);
    expect(gemini.received).toHaveLength(0);
  });

  it('sends the uploaded image as a data: URL content part, and analyses a GIF on this server', async () => {
    const image = await uploadFile(t.app, cookie, PNG);
    llm.replies = [chatAnswer(harbour)];
    const response = await analyze(image, { analysisType: 'comprehensive', generatePrompt: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { ...harbour, detectorNote: null },
      resultId: expect.any(String),
    });
    expect(llm.received.map((r) => r.problem)).toEqual([null]);
    const body = sent();
    expect(body.response_format.json_schema.name).toBe('image_analysis');
    const content = body.messages[1]?.content;
    expect(Array.isArray(content)).toBe(true);
    const url = (Array.isArray(content) ? content : []).find((part) => part.type === 'image_url')?.image_url?.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64').equals(PNG)).toBe(true);

    const gif = await analyze(await uploadFile(t.app, cookie, GIF));
    expect(gif.statusCode).toBe(200);
    expect(gif.json<{ data: ImageAnalysis }>().data.sceneDescription).toMatch(/square image/);
    expect(llm.received).toHaveLength(1);
    expect(gemini.received).toHaveLength(0);
  });

  it('turns a refusal into 502 ai_blocked and a cut-short or non-JSON answer into 502 ai_bad_answer', async () => {
    llm.replies = [chatRefusal('I will not describe this.')];
    const refused = await enhance();
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({
      code: 'ai_blocked',
      message: 'The AI refused this request: the model declined to answer.',
    });
    const image = await uploadFile(t.app, cookie, PNG);
    llm.replies = [chatAnswer('', 'content_filter')];
    const filtered = await analyze(image);
    expect(filtered.statusCode).toBe(502);
    expect(filtered.json().code).toBe('ai_blocked');

    llm.replies = [chatAnswer('{"enhancedPrompt": "A kite over', 'length')];
    const cut = await enhance();
    expect(cut.statusCode).toBe(502);
    expect(cut.json()).toEqual({
      code: 'ai_bad_answer',
      message: 'The AI sent an answer we could not read. It was cut short. Please try again.',
    });
    llm.replies = [chatAnswer('Here is your prompt: a kite over dunes at dawn.')];
    const prose = await enhance();
    expect(prose.statusCode).toBe(502);
    expect(prose.json().code).toBe('ai_bad_answer');
    llm.replies = [chatAnswer({ ...harbour, lighting: 'soft' })];
    const wrongShape = await analyze(image);
    expect(wrongShape.statusCode).toBe(502);
    expect(wrongShape.json().code).toBe('ai_bad_answer');
  });

  it("retries a 429, and answers 503 with the server's Retry-After when it stays busy", async () => {
    llm.replies = [chatError(429), chatAnswer({ enhancedPrompt: 'ok', improvements: [], confidence: 80 })];
    const retried = await enhance();
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toEqual({ enhancedPrompt: 'ok', improvements: [], confidence: 80 });
    expect(llm.received).toHaveLength(2);
    llm.received = [];
    llm.replies = [chatError(429, '12'), chatError(429, '12'), chatError(429, '12')];
    const gaveUp = await enhance();
    expect(gaveUp.statusCode).toBe(503);
    expect(gaveUp.json()).toEqual({
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a minute.',
    });
    expect(gaveUp.headers['retry-after']).toBe('12');
    expect(llm.received).toHaveLength(3);
  });

  it('answers 502 ai_unavailable for a server that does not answer in LLM_TIMEOUT_SECONDS or keeps failing, never naming the key', async () => {
    llm.replies = [{ kind: 'hang' }];
    const slow = await enhance();
    expect(slow.statusCode).toBe(502);
    expect(slow.json()).toEqual({
      code: 'ai_unavailable',
      message: 'The AI service did not answer in time. Please try again.',
    });
    llm.replies = [chatError(500), chatError(500), chatError(500)];
    const failing = await enhance();
    expect(failing.statusCode).toBe(502);
    expect(failing.json().code).toBe('ai_unavailable');
    for (const response of [slow, failing]) {
      expect(response.body).not.toContain(KEY);
      expect(response.body).not.toContain('127.0.0.1');
    }
    expect(gemini.received).toHaveLength(0);
  });
});
