import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

/*
 * A local server speaking OpenAI's Moderations API, written from its public documentation
 * (https://platform.openai.com/docs/api-reference/moderations/create and the moderation guide,
 * https://platform.openai.com/docs/guides/moderation), not from our client:
 * - POST {base}/moderations with a JSON body: `input` (a string, an array of strings, or an array of
 *   `{type: 'text', text}` / `{type: 'image_url', image_url: {url}}` parts) and an optional `model`
 *   (`omni-moderation-latest` by default); `Authorization: Bearer <key>` (401 `invalid_api_key`
 *   otherwise); an unknown argument is refused ("Unrecognized request argument supplied").
 * - It answers `{id: 'modr-...', model, results}`: one result per input string, each with `flagged`,
 *   `categories` (booleans), `category_scores` (0 to 1) and `category_applied_input_types`, under the
 *   13 category names harassment, harassment/threatening, hate, hate/threatening, illicit,
 *   illicit/violent, self-harm, self-harm/intent, self-harm/instructions, sexual, sexual/minors,
 *   violence and violence/graphic. Errors are `{error: {message, type, param, code}}`.
 * The scores it gives are the test's: `scoresFor(text)` names the categories it wants above zero.
 */

export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;
type Category = (typeof MODERATION_CATEGORIES)[number];

export interface ModerationRequest {
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeModeration {
  baseUrl: string;
  key: string;
  requests: ModerationRequest[];
  /** The scores each input text gets (categories not named score 0). */
  scoresFor: (text: string) => Partial<Record<Category, number>>;
  /** Set to answer every request with this status (and an error body), or never to answer ('hang'). */
  failure: number | 'hang' | null;
  close: () => Promise<void>;
}

const ALLOWED_FIELDS = new Set(['input', 'model']);

function error(response: ServerResponse, status: number, message: string, code: string | null, param?: string) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: param ?? null, code } }));
}

function textsOf(input: unknown): string[] | null {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return null;
  if (input.every((item) => typeof item === 'string')) return input;
  // Multi-modal parts make one input: the texts among them are read together.
  const parts = input as { type?: string; text?: unknown }[];
  if (!parts.every((part) => part.type === 'text' || part.type === 'image_url')) return null;
  return [parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ')];
}

export async function startFakeModeration(): Promise<FakeModeration> {
  const fake: FakeModeration = {
    baseUrl: '',
    key: `sk-test-${randomUUID()}`,
    requests: [],
    scoresFor: () => ({}),
    failure: null,
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await text(request);
      if (fake.failure === 'hang') return;
      if (request.method !== 'POST' || request.url !== '/v1/moderations')
        return error(response, 404, 'Not found', null);
      if (request.headers.authorization !== `Bearer ${fake.key}`)
        return error(response, 401, 'Incorrect API key provided.', 'invalid_api_key');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return error(response, 400, 'We could not parse the JSON body of your request.', null);
      }
      fake.requests.push({ headers: request.headers, body });
      const unknown = Object.keys(body).find((key) => !ALLOWED_FIELDS.has(key));
      if (unknown) return error(response, 400, `Unrecognized request argument supplied: ${unknown}`, null, unknown);
      if (body.model !== undefined && typeof body.model !== 'string')
        return error(response, 400, 'Invalid type for model.', null, 'model');
      const texts = textsOf(body.input);
      if (!texts) return error(response, 400, "Invalid value for 'input'.", null, 'input');
      if (fake.failure !== null) return error(response, fake.failure, 'The server had an error.', null);
      const results = texts.map((one) => {
        const given = fake.scoresFor(one);
        const scores = Object.fromEntries(MODERATION_CATEGORIES.map((name) => [name, given[name] ?? 0]));
        const categories = Object.fromEntries(MODERATION_CATEGORIES.map((name) => [name, (scores[name] ?? 0) >= 0.5]));
        return {
          flagged: Object.values(categories).some(Boolean),
          categories,
          category_scores: scores,
          category_applied_input_types: Object.fromEntries(MODERATION_CATEGORIES.map((name) => [name, ['text']])),
        };
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ id: `modr-${randomUUID()}`, model: body.model ?? 'omni-moderation-latest', results }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
