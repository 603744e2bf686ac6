import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

/*
 * A local server speaking the Chat Completions API of OpenAI-compatible servers, written from their
 * public documentation, not from our client:
 * - OpenAI's API reference, https://platform.openai.com/docs/api-reference/chat/create: POST
 *   {base}/chat/completions with a JSON body (`model`, `messages` of system/developer/user/assistant/
 *   tool roles; content a string or an array of parts: `{type: 'text', text}`, `{type: 'image_url',
 *   image_url: {url, detail?}}` where url is an http(s) address or a base64 `data:` URL;
 *   `response_format` `{type: 'text' | 'json_object' | 'json_schema', json_schema: {name, schema,
 *   strict?, description?}}` with a name of a-z, A-Z, 0-9, _ and -, at most 64); `Authorization:
 *   Bearer`; an unknown argument is refused ("Unrecognized request argument supplied"). It answers a
 *   `chat.completion` object: `choices[].message` `{role: 'assistant', content, refusal}` and
 *   `finish_reason` (`stop`, `length`, `content_filter`, `tool_calls`); errors are `{error: {message,
 *   type, param, code}}`, 429 when rate limited.
 * - Ollama's OpenAI compatibility, https://github.com/ollama/ollama/blob/main/docs/openai.md: the
 *   base URL is http://localhost:11434/v1/, the key is "required but ignored", and of the request
 *   fields it lists model, messages (text content, base64 image content, arrays of content parts),
 *   response_format, temperature, stream.
 * - Models, https://platform.openai.com/docs/api-reference/models/list: GET {base}/models answers
 *   `{object: 'list', data: [{id, object: 'model', created, owned_by}]}` (Ollama lists its pulled models
 *   there too); the stand-in lists `models`.
 * The stand-in checks each request against those rules (a wrong one gets OpenAI's 400 and is recorded
 * with its problem), records it, and plays scripted replies in order.
 */

/** What the stand-in answers to the next request. */
export type ChatReply =
  | { kind: 'answer'; content: string | null; finishReason?: string; refusal?: string }
  | { kind: 'error'; status: number; retryAfter?: string }
  | { kind: 'raw'; status: number; body: string }
  /** Never answers (the client's time limit ends it). */
  | { kind: 'hang' };

/** A completion whose content is `value` (JSON unless it is a string already). */
export const chatAnswer = (value: unknown, finishReason = 'stop'): ChatReply => ({
  kind: 'answer',
  content: typeof value === 'string' ? value : JSON.stringify(value),
  finishReason,
});
/** A refusal as OpenAI sends it: no content, the refusal's words, finish_reason stop. */
export const chatRefusal = (words: string): ChatReply => ({ kind: 'answer', content: null, refusal: words });
export const chatError = (status: number, retryAfter?: string): ChatReply => ({ kind: 'error', status, retryAfter });

export interface ChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Why the request broke the API's rules (it was answered 400/401/404), or null. */
  problem: string | null;
}

export interface FakeOpenAi {
  /** The API's base, as an operator sets LLM_BASE_URL: http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  received: ChatRequest[];
  /** Replies in order, one per valid request; with none left the stand-in answers 500. */
  replies: ChatReply[];
  /** When set, a request without `Authorization: Bearer <apiKey>` is answered 401. */
  apiKey: string | undefined;
  /** What GET /v1/models lists. */
  models: string[];
  close(): Promise<void>;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/]+={0,2})$/;
/** The request arguments OpenAI's reference documents; anything else is refused as OpenAI does. */
const ARGUMENTS = new Set(
  (
    'model messages audio frequency_penalty function_call functions logit_bias logprobs max_completion_tokens ' +
    'max_tokens metadata modalities n parallel_tool_calls prediction presence_penalty prompt_cache_key ' +
    'reasoning_effort response_format safety_identifier seed service_tier stop store stream stream_options ' +
    'temperature tool_choice tools top_logprobs top_p user verbosity web_search_options'
  ).split(' '),
);

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const server = createServer();
  let count = 0;
  const fake: FakeOpenAi = {
    baseUrl: '',
    received: [],
    replies: [],
    apiKey: undefined,
    models: ['llama3.2-vision', 'qwen2.5vl'],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('request', (req, res) => {
    void text(req)
      .then((raw) => {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const request: ChatRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          problem: null,
        };
        fake.received.push(request);
        if (request.method === 'GET' && request.path === '/v1/models') {
          if (fake.apiKey !== undefined && request.headers.authorization !== `Bearer ${fake.apiKey}`) {
            sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              object: 'list',
              data: fake.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'library' })),
            }),
          );
          return;
        }
        const refusal = refusalOf(request, fake.apiKey);
        if (refusal) {
          request.problem = refusal.message;
          sendError(res, refusal.status, refusal.message, refusal.code);
          return;
        }
        count += 1;
        play(res, fake.replies.shift(), (body as { model: string }).model, count);
      })
      .catch(() => {
        // The client went away before sending its whole body: nothing to answer.
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

function play(res: ServerResponse, reply: ChatReply | undefined, model: string, count: number): void {
  if (!reply) return sendError(res, 500, 'The stand-in has no reply queued.', null);
  switch (reply.kind) {
    case 'hang':
      return;
    case 'raw':
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
      return;
    case 'error':
      return sendError(
        res,
        reply.status,
        reply.status === 429 ? 'Rate limit reached for requests.' : 'The server had an error processing your request.',
        reply.status === 429 ? 'rate_limit_exceeded' : null,
        reply.retryAfter ? { 'retry-after': reply.retryAfter } : {},
      );
    case 'answer':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-fake${count}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.content, refusal: reply.refusal ?? null, annotations: [] },
              logprobs: null,
              finish_reason: reply.finishReason ?? 'stop',
            },
          ],
          usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
        }),
      );
  }
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string | null,
  headers: Record<string, string> = {},
): void {
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

interface Refusal {
  status: number;
  message: string;
  code: string | null;
}

/** What OpenAI would refuse this request for, or null. */
function refusalOf(request: ChatRequest, apiKey: string | undefined): Refusal | null {
  if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
    return { status: 404, message: `Unknown request URL: ${request.method} ${request.path}.`, code: 'unknown_url' };
  }
  if (apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) {
    return { status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' };
  }
  const invalid = (message: string): Refusal => ({ status: 400, message, code: null });
  if (!request.headers['content-type']?.startsWith('application/json')) return invalid('The body must be JSON.');
  const body = request.body;
  if (!isObject(body)) return invalid('We could not parse the JSON body of your request.');
  const unknown = Object.keys(body).find((key) => !ARGUMENTS.has(key));
  if (unknown) return invalid(`Unrecognized request argument supplied: ${unknown}`);
  if (typeof body.model !== 'string' || !body.model) return invalid('you must provide a model parameter');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return invalid("'messages' must be a non-empty array");
  for (const [index, message] of body.messages.entries()) {
    const problem = messageProblem(message);
    if (problem) return invalid(`messages[${index}]: ${problem}`);
  }
  if (body.stream === true) return invalid('This stand-in does not stream; send stream false or leave it out.');
  if (
    body.temperature !== undefined &&
    !(typeof body.temperature === 'number' && body.temperature >= 0 && body.temperature <= 2)
  ) {
    return invalid('temperature must be a number from 0 to 2');
  }
  const format = body.response_format === undefined ? null : responseFormatProblem(body.response_format);
  return format ? invalid(`response_format: ${format}`) : null;
}

function messageProblem(message: unknown): string | null {
  if (!isObject(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) return 'an unknown role';
  if (typeof message.content === 'string') return null;
  if (!Array.isArray(message.content)) return 'content must be a string or an array of content parts';
  const onlyText = message.role !== 'user';
  for (const part of message.content) {
    if (!isObject(part)) return 'a content part must be an object';
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return 'a text part needs text';
    } else if (part.type === 'image_url' && !onlyText) {
      const image = part.image_url;
      if (!isObject(image) || typeof image.url !== 'string') return 'an image_url part needs image_url.url';
      if (!DATA_URL.test(image.url) && !/^https?:\/\//.test(image.url))
        return 'image_url.url must be a URL or a base64 data: URL of an image';
      if (image.detail !== undefined && !['auto', 'low', 'high'].some((detail) => detail === image.detail))
        return 'image_url.detail must be auto, low or high';
    } else {
      return `a ${JSON.stringify(part.type)} part is not allowed here`;
    }
  }
  return null;
}

function responseFormatProblem(format: unknown): string | null {
  if (!isObject(format)) return 'must be an object';
  if (format.type === 'text' || format.type === 'json_object') return null;
  if (format.type !== 'json_schema') return 'type must be text, json_object or json_schema';
  const schema = format.json_schema;
  if (!isObject(schema)) return 'json_schema is required with type json_schema';
  if (typeof schema.name !== 'string' || !SCHEMA_NAME.test(schema.name))
    return 'json_schema.name must be a-z, A-Z, 0-9, _ or -, at most 64';
  if (schema.schema !== undefined && !isObject(schema.schema)) return 'json_schema.schema must be a JSON Schema object';
  if (schema.strict !== undefined && typeof schema.strict !== 'boolean') return 'json_schema.strict must be a boolean';
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
