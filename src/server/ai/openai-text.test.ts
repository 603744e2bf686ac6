import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appErrorOf as appErrorWith } from '../../../tests/support/fake-provider';
import {
  chatAnswer,
  chatError,
  chatRefusal,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../../../tests/support/fake-openai';
import { type ChatJsonRequest, generateChatJson } from './openai-text';

const KEY = 'sk-secret-llm-key-123';
const answerSchema = z.object({ prompt: z.string() });
const responseJsonSchema = { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] };

describe('generateChatJson (a local server speaking Chat Completions)', () => {
  let fake: FakeOpenAi;
  const call = (overrides: Partial<ChatJsonRequest<{ prompt: string }>> = {}) =>
    generateChatJson({
      baseUrl: `${fake.baseUrl}/`,
      model: 'llama3.2-vision',
      apiKey: KEY,
      systemInstruction: 'Be helpful.',
      parts: [{ text: 'A cat' }],
      schemaName: 'answer',
      responseJsonSchema,
      schema: answerSchema,
      retryDelayMs: 1,
      ...overrides,
    });
  const appErrorOf = (promise: Promise<unknown>) => appErrorWith(promise, KEY);
  const problems = () => fake.received.map((r) => r.problem).filter(Boolean);

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.received = [];
    fake.replies = [];
    fake.apiKey = KEY;
  });

  it('posts system and user messages with a json_schema response format and the key as Bearer', async () => {
    fake.replies = [chatAnswer({ prompt: 'A cat, close-up' })];
    await expect(call({ temperature: 0.2 })).resolves.toEqual({ prompt: 'A cat, close-up' });
    expect(problems()).toEqual([]);
    const [request] = fake.received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({
      model: 'llama3.2-vision',
      messages: [
        { role: 'system', content: 'Be helpful.' },
        { role: 'user', content: 'A cat' },
      ],
      temperature: 0.2,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: responseJsonSchema } },
    });
  });

  it('sends no Authorization header without a key', async () => {
    fake.apiKey = undefined;
    fake.replies = [chatAnswer({ prompt: 'keyless' })];
    await expect(call({ apiKey: undefined })).resolves.toEqual({ prompt: 'keyless' });
    expect(fake.received[0]?.headers.authorization).toBeUndefined();
  });

  it('sends an image as an image_url content part holding a base64 data: URL', async () => {
    fake.replies = [chatAnswer({ prompt: 'seen' })];
    const parts = [{ text: 'Describe' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }];
    await expect(call({ parts })).resolves.toEqual({ prompt: 'seen' });
    expect(problems()).toEqual([]);
    const body = fake.received[0]?.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Describe' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
  });

  it('tolerates a Markdown fence and a leading <think> block around the JSON', async () => {
    fake.replies = [chatAnswer('<think>\nA cat, so...\n</think>\n```json\n{"prompt":"fenced"}\n```')];
    await expect(call()).resolves.toEqual({ prompt: 'fenced' });
  });

  it('turns a refusal or a content filter stop into 502 ai_blocked, without the refusal words', async () => {
    fake.replies = [chatRefusal(`I cannot help with that (${KEY}).`)];
    expect(await appErrorOf(call())).toEqual({
      status: 502,
      code: 'ai_blocked',
      message: 'The AI refused this request: the model declined to answer.',
      headers: {},
    });
    fake.replies = [chatAnswer('', 'content_filter')];
    expect(await appErrorOf(call())).toMatchObject({
      status: 502,
      code: 'ai_blocked',
      message: 'The AI refused this request: content filter.',
    });
  });

  it('turns a cut-short, unreadable or wrongly shaped answer into 502 ai_bad_answer', async () => {
    fake.replies = [chatAnswer('{"prompt": "unterminated', 'length')];
    expect(await appErrorOf(call())).toEqual({
      status: 502,
      code: 'ai_bad_answer',
      message: 'The AI sent an answer we could not read. It was cut short. Please try again.',
      headers: {},
    });
    fake.replies = [chatAnswer('Sure! Here is a prompt: a cat.')];
    expect(await appErrorOf(call())).toMatchObject({
      code: 'ai_bad_answer',
      message: 'The AI sent an answer we could not read. Please try again.',
    });
    fake.replies = [chatAnswer({ other: 1 })];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
    fake.replies = [{ kind: 'raw', status: 200, body: '<html>not json</html>' }];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
    fake.replies = [{ kind: 'raw', status: 200, body: '{"choices":[]}' }];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
  });

  it('retries a 429 and a 5xx with backoff, then answers', async () => {
    fake.replies = [chatError(429), chatError(502), chatAnswer({ prompt: 'third time' })];
    await expect(call()).resolves.toEqual({ prompt: 'third time' });
    expect(fake.received).toHaveLength(3);
  });

  it("gives up after three 429s with 503 ai_busy and the server's Retry-After", async () => {
    fake.replies = [chatError(429, '7'), chatError(429, '7'), chatError(429, '17'), chatAnswer({ prompt: 'late' })];
    expect(await appErrorOf(call())).toEqual({
      status: 503,
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a minute.',
      headers: { 'retry-after': '17' },
    });
    expect(fake.received).toHaveLength(3);
    fake.received = [];
    fake.replies = [chatError(429), chatError(429), chatError(429)];
    expect((await appErrorOf(call())).headers).toEqual({ 'retry-after': '60' });
  });

  it('answers 502 ai_unavailable after three 5xx, and at once for a wrong key, without echoing the server', async () => {
    fake.replies = [chatError(500), chatError(500), chatError(500)];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_unavailable' });
    expect(fake.received).toHaveLength(3);
    fake.received = [];
    const wrongKey = await appErrorOf(call({ apiKey: 'sk-wrong' }));
    expect(wrongKey).toEqual({
      status: 502,
      code: 'ai_unavailable',
      message: 'The AI service answered with an error (401). Please try again later.',
      headers: {},
    });
    expect(wrongKey.message).not.toContain('sk-wrong');
    expect(fake.received).toHaveLength(1);
  });

  it('answers 502 ai_unavailable for a timeout, a cancellation and a server that cannot be reached', async () => {
    fake.replies = [{ kind: 'hang' }];
    expect(await appErrorOf(call({ timeoutMs: 100 }))).toEqual({
      status: 502,
      code: 'ai_unavailable',
      message: 'The AI service did not answer in time. Please try again.',
      headers: {},
    });
    expect(fake.received).toHaveLength(1);
    const controller = new AbortController();
    fake.replies = [{ kind: 'hang' }];
    const cancelled = call({ signal: controller.signal });
    await expect.poll(() => fake.received.length).toBe(2);
    controller.abort();
    expect(await appErrorOf(cancelled)).toMatchObject({
      code: 'ai_unavailable',
      message: expect.stringContaining('cancelled'),
    });
    expect(await appErrorOf(call({ baseUrl: 'http://127.0.0.1:9/v1' }))).toMatchObject({
      code: 'ai_unavailable',
      message: expect.stringContaining('could not be reached'),
    });
  });
});
