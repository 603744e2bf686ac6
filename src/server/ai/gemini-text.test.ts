import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appErrorOf as appErrorWith,
  type FakeServer,
  type Reply,
  startFakeServer,
} from '../../../tests/support/fake-provider';
import { type GeminiJsonRequest, generateJson } from './gemini-text';

const KEY = 'secret-gemini-key-123';
const answerSchema = z.object({ prompt: z.string() });
const candidate = (text: string, finishReason = 'STOP', extraParts: object[] = []): Reply => ({
  status: 200,
  json: {
    candidates: [{ content: { role: 'model', parts: [...extraParts, { text }] }, finishReason }],
    usageMetadata: { totalTokenCount: 12 },
  },
});
const busy: Reply = {
  status: 429,
  json: {
    error: {
      code: 429,
      message: 'Resource has been exhausted',
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
    },
  },
};

describe('generateJson (a local server speaking Gemini generateContent)', () => {
  let fake: FakeServer;
  let replies: Reply[];
  const call = (overrides: Partial<GeminiJsonRequest<{ prompt: string }>> = {}) =>
    generateJson({
      apiKey: KEY,
      baseUrl: `${fake.baseUrl}/`,
      model: 'gemini-test',
      systemInstruction: 'Be helpful.',
      parts: [{ text: 'A cat' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
      responseJsonSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      schema: answerSchema,
      retryDelayMs: 1,
      ...overrides,
    });
  const appErrorOf = (promise: Promise<unknown>) => appErrorWith(promise, KEY);

  beforeAll(async () => {
    fake = await startFakeServer();
    fake.route = () => replies.shift() ?? { status: 500, json: { error: { code: 500, message: 'no reply queued' } } };
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.received = [];
    replies = [];
  });

  it('posts the wire format with the key in a header and answers the parsed JSON', async () => {
    replies = [candidate('{"prompt":"A cat, close-up"}')];
    await expect(call({ temperature: 0.2 })).resolves.toEqual({ prompt: 'A cat, close-up' });
    const [request] = fake.received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(request?.headers['x-goog-api-key']).toBe(KEY);
    expect(request?.path).not.toContain(KEY);
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'A cat' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      ],
      systemInstruction: { parts: [{ text: 'Be helpful.' }] },
      generationConfig: {
        temperature: 0.2,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      },
    });
  });

  it('ignores thought parts and tolerates a Markdown fence around the JSON', async () => {
    replies = [candidate('```json\n{"prompt":"fenced"}\n```', 'STOP', [{ text: 'thinking...', thought: true }])];
    await expect(call()).resolves.toEqual({ prompt: 'fenced' });
  });

  it('turns a blocked prompt or a refusing finish reason into 502 ai_blocked with the reason', async () => {
    replies = [{ status: 200, json: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } }];
    expect(await appErrorOf(call())).toMatchObject({
      status: 502,
      code: 'ai_blocked',
      message: 'The AI refused this request: prohibited content.',
    });
    replies = [candidate('', 'SAFETY')];
    expect(await appErrorOf(call())).toMatchObject({
      status: 502,
      code: 'ai_blocked',
      message: 'The AI refused this request: safety.',
    });
  });

  it('turns unreadable or wrongly shaped answers into 502 ai_bad_answer', async () => {
    replies = [candidate('{"prompt": "unterminated', 'MAX_TOKENS')];
    expect(await appErrorOf(call())).toMatchObject({
      status: 502,
      code: 'ai_bad_answer',
      message: expect.stringContaining('cut short'),
    });
    replies = [candidate('{"other": 1}')];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
    replies = [{ status: 200, bytes: Buffer.from('<html>not json</html>') }];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
    replies = [{ status: 200, json: { candidates: [] } }];
    expect(await appErrorOf(call())).toMatchObject({ status: 502, code: 'ai_bad_answer' });
  });

  it('retries 429 and 503 twice with backoff, then answers', async () => {
    replies = [
      busy,
      { status: 503, json: { error: { code: 503, message: 'The model is overloaded.' } } },
      candidate('{"prompt":"third time"}'),
    ];
    await expect(call()).resolves.toEqual({ prompt: 'third time' });
    expect(fake.received).toHaveLength(3);
  });

  it("gives up after three 429s with 503 ai_busy and Gemini's retry delay", async () => {
    replies = [busy, busy, busy, candidate('{"prompt":"too late"}')];
    expect(await appErrorOf(call())).toEqual({
      status: 503,
      code: 'ai_busy',
      message: 'The AI service is busy right now. Please try again in a minute.',
      headers: { 'retry-after': '17' },
    });
    expect(fake.received).toHaveLength(3);
  });

  it('turns other HTTP errors into 502 ai_unavailable without retrying or echoing the answer', async () => {
    replies = [
      {
        status: 400,
        json: {
          error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
        },
      },
    ];
    const error = await appErrorOf(call());
    expect(error).toMatchObject({ status: 502, code: 'ai_unavailable' });
    expect(error.message).not.toMatch(/API key/);
    expect(fake.received).toHaveLength(1);
  });

  describe('when Gemini cannot be reached', () => {
    let silent: Server;
    let silentUrl: string;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      // Accepts connections and never answers.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('answers 502 ai_unavailable for a refused connection, a timeout and a cancellation', async () => {
      expect(await appErrorOf(call({ baseUrl: 'http://127.0.0.1:9' }))).toMatchObject({
        status: 502,
        code: 'ai_unavailable',
        message: expect.stringContaining('could not be reached'),
      });
      expect(await appErrorOf(call({ baseUrl: silentUrl, timeoutMs: 100 }))).toMatchObject({
        code: 'ai_unavailable',
        message: expect.stringContaining('in time'),
      });
      expect(await appErrorOf(call({ baseUrl: silentUrl, signal: AbortSignal.abort() }))).toMatchObject({
        code: 'ai_unavailable',
        message: expect.stringContaining('cancelled'),
      });
    });
  });
});
