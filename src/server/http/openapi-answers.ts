import type { ErrorAnswer, HeaderDoc, RouteDoc } from './openapi-words';
import type { Json } from './openapi-samples';

/**
 * The answers, headers and request headers every route of a kind has (openapi.ts adds them to each
 * operation): errors by sign-in, input and limits, `Retry-After`, `ETag` and 304, files with Range
 * and 206, `Idempotency-Key` and its replay. What one route alone answers sits beside it (its `doc`).
 */

/** What the document needs to know about a route beyond its schemas, gathered while it is built. */
export interface RouteFacts {
  url: string;
  doc: RouteDoc;
  tokenScope: string | undefined;
  rateLimited: boolean;
  allowCrossSite: boolean;
  takesInput: boolean;
}

export const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error answer: a stable snake_case `code` and a sentence for people.',
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  required: ['code', 'message'],
};

const STATUS_WORDS: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in, or the token is unknown, revoked or expired',
  402: 'Not enough credits',
  403: 'Not allowed',
  404: 'Not found',
  408: 'Too slow',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported type',
  416: 'Range not satisfiable',
  422: 'Refused',
  429: 'Too many requests',
  500: 'Server error',
  502: 'An upstream service failed',
  503: 'Not available on this server',
};

/** The error answers every route of its kind has, before its own (its `doc`'s errors). */
export function commonErrors(facts: RouteFacts, method: string): ErrorAnswer[] {
  const errors: ErrorAnswer[] = [];
  if (facts.takesInput)
    errors.push({ status: 400, code: 'validation_failed', message: 'prompt: must be at most 2000 characters' });
  if (!facts.doc.public) errors.push({ status: 401, code: 'unauthorized', message: 'Please sign in to continue' });
  // Any /api request with an Authorization header is checked for its token first, public routes too.
  errors.push(
    {
      status: 401,
      code: 'invalid_token',
      message: 'This access token is not valid. It may have been revoked or may have expired.',
    },
    {
      status: 401,
      code: 'token_expired',
      message: 'This access token has expired. Create a new one on your account page.',
    },
  );
  if (facts.tokenScope)
    errors.push({
      status: 403,
      code: 'missing_scope',
      message: `This access token does not have the "${facts.tokenScope}" scope this request needs.`,
    });
  else
    errors.push({
      status: 403,
      code: 'token_not_allowed',
      message: 'Access tokens cannot be used here. Sign in on the website to do this.',
    });
  // A browser's state-changing request from another site (a bearer request is never refused for it).
  if (!['get', 'head', 'options'].includes(method) && !facts.allowCrossSite)
    errors.push({ status: 403, code: 'cross_site_request', message: 'Cross-site requests are not allowed.' });
  if (facts.doc.servesFile)
    errors.push({ status: 416, code: 'range_not_satisfiable', message: 'The requested range is outside the file.' });
  if (facts.rateLimited || facts.tokenScope)
    errors.push({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests. Please wait a moment and try again.',
    });
  errors.push({
    status: 500,
    code: 'internal_error',
    message: 'Something went wrong on our side. Please try again. (reference 1b4e28ba-2fa1-11d2-883f-0016d3cca427)',
  });
  // The overload guard (http/overload.ts) sheds /api requests, except signed media.
  if (!facts.url.startsWith('/api/media/'))
    errors.push({
      status: 503,
      code: 'server_busy',
      message: 'The server is busy right now. Please try again in a moment.',
    });
  return errors;
}

export function errorResponses(errors: ErrorAnswer[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorAnswer[]>();
  for (const error of errors) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Record<string, Json> = {};
  for (const [status, answers] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(answers.map((a) => a.code))];
    responses[String(status)] = {
      description: `${STATUS_WORDS[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(
            answers.map((a) => [a.code, { summary: a.code, value: { code: a.code, message: a.message } }]),
          ),
        },
      },
    };
  }
  return responses;
}

// Response headers a client reads.

const SECONDS = { type: 'integer', minimum: 0 };

const retryAfter = (required: boolean): HeaderDoc => ({
  description: 'Seconds to wait before trying again.',
  required,
  schema: SECONDS,
});

/** @fastify/rate-limit's headers on the answers of a route with its own limit (reused from components.headers). */
export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  'X-RateLimit-Limit': { description: 'Requests this route takes from one caller in its window.', schema: SECONDS },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: SECONDS },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: SECONDS },
};
const rateLimitRefs = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

const ETAG: HeaderDoc = {
  description: 'The answer’s entity tag: send it back as `If-None-Match`, and while nothing changed the answer is 304.',
  required: true,
  schema: { type: 'string' },
};

const IDEMPOTENT_REPLAYED: HeaderDoc = {
  description:
    '`true` when this is the saved answer of an earlier request with the same `Idempotency-Key` (nothing was done again).',
  schema: { type: 'string', enum: ['true'] },
};

/** Answers an Idempotency-Key request does not keep for a replay (idempotency.service.ts: notKept). */
const notReplayed = (status: number) => status === 400 || status === 408 || status === 429 || status >= 500;
/** Answers an Idempotency-Key request can be answered again with: kept ones, after the caller was known. */
const replayable = (status: number) => status >= 200 && status !== 304 && status !== 401 && !notReplayed(status);

/** The types a stored file is served as: what the upload check let in, and what the worker made. */
const FILE_TYPES = ['video/*', 'image/*', 'audio/*'];
const fileContent = (): Json =>
  Object.fromEntries(FILE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
const FILE_HEADERS: Record<string, HeaderDoc> = {
  'Accept-Ranges': {
    description: '`bytes`: a `Range` request is answered 206.',
    required: true,
    schema: { type: 'string' },
  },
  'Content-Length': { description: 'The bytes of this answer.', required: true, schema: SECONDS },
};

/** The answers of a stored file (http/serve-object.ts): whole, a range, or S3's presigned redirect. */
function fileAnswers(): Record<string, Json> {
  return {
    '200': { description: 'The file, as its own type.', headers: FILE_HEADERS, content: fileContent() },
    '206': {
      description: 'The bytes a `Range` request named.',
      headers: {
        ...FILE_HEADERS,
        'Content-Range': {
          description: '`bytes START-END/SIZE`.',
          required: true,
          schema: { type: 'string', pattern: '^bytes \\d+-\\d+/\\d+$' },
        },
      },
      content: fileContent(),
    },
    '302': {
      description: 'On S3-compatible storage: the file’s short-lived presigned address.',
      headers: {
        Location: { description: 'Where the file is, for 5 minutes.', required: true, schema: { type: 'string' } },
      },
    },
  };
}

const requestHeader = (name: string, description: string, schema: Json, example: string): Json => ({
  in: 'header',
  name,
  required: false,
  description,
  schema,
  example,
});

/** The answers and request headers of a route's kind (`doc.servesFile`, `etag`, `idempotent`) before its errors. */
export function kindAnswers(doc: RouteDoc): { responses: Record<string, Json>; parameters: Json[] } {
  const responses: Record<string, Json> = {};
  const parameters: Json[] = [];
  if (doc.servesFile) {
    Object.assign(responses, fileAnswers());
    parameters.push(
      requestHeader(
        'Range',
        'One range of bytes (`bytes=START-END`, `bytes=START-` or `bytes=-LAST`).',
        { type: 'string' },
        'bytes=0-1023',
      ),
    );
  }
  if (doc.etag) {
    responses['304'] = {
      description: 'Not modified: the tag in `If-None-Match` is still the answer’s; no body.',
      headers: { ETag: ETAG },
    };
    parameters.push(
      requestHeader(
        'If-None-Match',
        'The `ETag` of the answer you have.',
        { type: 'string' },
        '"v-6f1c0b7e-12-29440800"',
      ),
    );
  }
  if (doc.idempotent) {
    parameters.push(
      requestHeader(
        'Idempotency-Key',
        'Makes a retry safe: the same key and body within 24 hours answer the first result (charged once); the same key with another body is 422.',
        { type: 'string', minLength: 1, maxLength: 255 },
        '0b6f4f7c-9d0e-4e4b-8f61-3a2b1c0d9e8f',
      ),
    );
  }
  return { responses, parameters };
}

/** Adds the headers each answer of the operation carries, by status, to its complete responses. */
export function addResponseHeaders(responses: Record<string, Json>, facts: RouteFacts): void {
  const { doc } = facts;
  const add = (status: string, headers: Record<string, unknown>) => {
    const answer = responses[status];
    if (answer) answer.headers = { ...(answer.headers as Json | undefined), ...headers };
  };
  for (const [status, headers] of Object.entries(doc.headers ?? {})) add(status, headers);
  for (const status of Object.keys(responses)) {
    const code = Number(status);
    if (code >= 200 && code < 300 && doc.etag) add(status, { ETag: ETAG });
    if (facts.rateLimited && ((code >= 200 && code < 300) || code === 429)) add(status, rateLimitRefs);
    if (doc.idempotent && replayable(code)) add(status, { 'Idempotent-Replayed': IDEMPOTENT_REPLAYED });
  }
  // Every 429 says when to try again; some 503s do (a busy server, a busy AI service), and so does
  // the 409 of an Idempotency-Key whose first request is still running.
  add('429', { 'Retry-After': retryAfter(true) });
  add('503', { 'Retry-After': retryAfter(false) });
  if (doc.idempotent) add('409', { 'Retry-After': retryAfter(false) });
  if (doc.servesFile)
    add('416', {
      'Content-Range': { description: '`bytes */SIZE`: the file’s size.', required: true, schema: { type: 'string' } },
    });
}
