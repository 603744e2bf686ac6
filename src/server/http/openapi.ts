import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { TOKEN_PREFIX } from '../../shared/api-tokens';
import { REPORT_REASONS } from '../../shared/safety';
import type { Config } from '../config';
import { API_TAGS, type ErrorAnswer, type MediaDoc, type RouteDoc } from './openapi-words';

/** The OpenAPI 3.1 document (built on its first request, then kept). */
export const OPENAPI_URL = '/api/openapi.json';
/** The reference page (Swagger UI, served from our own files). */
export const DOCS_URL = '/api/docs';

export const SECURITY_SCHEMES = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: `${TOKEN_PREFIX}...`,
    description:
      'A personal access token from the account page, as `Authorization: Bearer rs_...`. Each route names the scope it needs; routes without one refuse every token with 403.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'rs_session',
    description: 'The website’s session cookie (set by POST /api/auth/login).',
  },
} as const;

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; requestBody?: Json; parameters?: Json[] };

/** What the document needs to know about a route beyond its schemas, gathered while it is built. */
interface RouteFacts {
  url: string;
  doc: RouteDoc;
  tokenScope: string | undefined;
  rateLimited: boolean;
  allowCrossSite: boolean;
  takesInput: boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `/api/video-generation/:id` → `/api/video-generation/{id}`, as the document writes paths. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const firstMethod = (method: RouteOptions['method']) => (Array.isArray(method) ? method[0] : method) ?? 'GET';

const ERROR_SCHEMA = {
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
  422: 'Refused',
  429: 'Too many requests',
  500: 'Server error',
  502: 'An upstream service failed',
  503: 'Not available on this server',
};

/** The error answers every route of its kind has, before its own (its `doc`'s errors). */
function commonErrors(facts: RouteFacts, method: string): ErrorAnswer[] {
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

function errorResponses(errors: ErrorAnswer[]): Record<string, Json> {
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

/** A value that fits a JSON schema, for routes without a hand-written example. */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return null;
  const s = schema as Json;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as unknown;
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if ('default' in s && s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as unknown;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options: unknown = s[key];
    if (Array.isArray(options)) {
      const useful: unknown = options.find((o: Json | null) => o?.type !== 'null') ?? options[0];
      return sampleOf(useful, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sampleOf(v, depth + 1)]));
    }
    case 'array':
      return s.items ? [sampleOf(s.items, depth + 1)] : [];
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

function sampleString(s: Json): string {
  switch (s.format) {
    case 'date-time':
      return '2026-11-25T10:00:00.000Z';
    case 'uuid':
      return '6f1c0b7e-3a52-4d8e-9c1a-2b7f5d9e4a10';
    case 'email':
      return 'ada@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    default: {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      return 'text'.padEnd(min, 'x');
    }
  }
}

const jsonMedia = (operationPart: Json | undefined): Json | undefined =>
  (operationPart?.content as Record<string, Json> | undefined)?.['application/json'];

/** Adds to one operation what the zod schemas cannot say: errors, examples, headers, raw bodies. */
function completeOperation(operation: Operation, facts: RouteFacts, method: string): void {
  const { doc } = facts;
  const responses = (operation.responses ??= {});
  for (const [status, answer] of Object.entries(doc.responses ?? {})) {
    responses[status] = { description: answer.description, ...(answer.content ? { content: answer.content } : {}) };
  }
  // A route that answers something else than 200 (201, 204, a file) has no "Default Response" 200.
  if (doc.responses && !doc.responses[200] && responses['200']?.description === 'Default Response')
    delete responses['200'];
  for (const [status, answer] of Object.entries(responses)) {
    if (!status.startsWith('2')) continue;
    if (answer.description === 'Default Response') answer.description = status === '201' ? 'Created' : 'OK';
    const media = jsonMedia(answer);
    if (media && media.example === undefined && media.examples === undefined)
      media.example = doc.example ?? sampleOf(media.schema);
  }
  Object.assign(responses, errorResponses([...commonErrors(facts, method), ...(doc.errors ?? [])]));

  if (doc.requestContent) {
    operation.requestBody = { required: true, content: mediaContent(doc.requestContent) };
  } else {
    const media = jsonMedia(operation.requestBody);
    if (media && media.example === undefined) media.example = doc.requestExample ?? sampleOf(media.schema);
  }
  if (doc.idempotent) {
    (operation.parameters ??= []).push({
      in: 'header',
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the same key and body within 24 hours answer the first result (charged once); the same key with another body is 422.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      example: '0b6f4f7c-9d0e-4e4b-8f61-3a2b1c0d9e8f',
    });
  }
}

/** The signature headers of every webhook request (Standard Webhooks). */
const SIGNATURE_HEADERS = {
  'webhook-id': 'The event’s id: the same on every retry and redelivery (handle each id once).',
  'webhook-timestamp': 'When this attempt was signed, in seconds since 1970.',
  'webhook-signature':
    '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret’s base64-decoded bytes.',
};

/**
 * The events POSTed to a user's webhook endpoints (OpenAPI 3.1 `webhooks`): Standard Webhooks'
 * `type`, `timestamp` and `data`; the video events carry the video as GET /api/video-generation lists it.
 */
function webhookEvents(video: unknown): Json {
  const event = (type: string, summary: string, data: unknown, example: Json) => ({
    post: {
      summary,
      tags: ['Webhooks'],
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, description]) => ({
        in: 'header',
        name,
        required: true,
        description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                type: { type: 'string', const: type },
                timestamp: { type: 'string', format: 'date-time' },
                data,
              },
              required: ['type', 'timestamp', 'data'],
            },
            example: { type, timestamp: '2026-11-25T10:01:12.000Z', data: example },
          },
        },
      },
      responses: {
        '200': { description: 'Any 2xx answer is success; anything else is retried for 24 hours.' },
      },
    },
  });
  const finished = (status: string, extra: Json) => ({ ...(sampleOf(video) as Json), status, ...extra });
  return {
    'video.completed': event('video.completed', 'A video is ready', video, finished('completed', { progress: 100 })),
    'video.failed': event(
      'video.failed',
      'A video failed',
      video,
      finished('failed', { errorMessage: 'The video could not be made.' }),
    ),
    'video.progress': event(
      'video.progress',
      'A video moved on (opt-in)',
      video,
      finished('processing', { progress: 40 }),
    ),
    'credits.low': event(
      'credits.low',
      'Credits fell below 1',
      {
        type: 'object',
        properties: { credits: { type: 'number' }, thresholdCredits: { type: 'number' } },
        required: ['credits', 'thresholdCredits'],
      },
      { credits: 0.5, thresholdCredits: 1 },
    ),
    'video.taken_down': event(
      'video.taken_down',
      'A video was taken down after a report',
      {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The reported video.' },
          removed: {
            type: 'array',
            items: { type: 'string' },
            description: 'Every video removed with it (itself, and the extends and remixes made from it).',
          },
          reason: { type: 'string', enum: [...REPORT_REASONS] },
          note: { type: 'string', description: "The administrator's words ('' when none)." },
          takenDownAt: { type: 'string', format: 'date-time' },
        },
        required: ['id', 'removed', 'reason', 'note', 'takenDownAt'],
      },
      {
        id: '6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70',
        removed: ['6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70'],
        reason: 'likeness',
        note: '',
        takenDownAt: '2026-11-25T10:01:12.000Z',
      },
    ),
  };
}

function mediaContent(content: Record<string, MediaDoc>): Json {
  return Object.fromEntries(
    Object.entries(content).map(([type, media]) => [
      type,
      { schema: media.schema, ...(media.example !== undefined ? { example: media.example } : {}) },
    ]),
  );
}

function securityOf(facts: { doc: RouteDoc; tokenScope: string | undefined }): Record<string, string[]>[] {
  if (facts.doc.public) return [];
  return facts.tokenScope ? [{ accessToken: [facts.tokenScope] }, { sessionCookie: [] }] : [{ sessionCookie: [] }];
}

/**
 * GET /api/openapi.json and the reference page at /api/docs. Register before the routes (the
 * document collects them as they are added). Nothing is built at start: the document is made from
 * the zod schemas on its first request and kept for the life of the process.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const facts = new Map<string, RouteFacts>();
  const hidden = { schema: { hide: true } };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Reelsmith API',
        version: '1',
        description:
          'Make videos from a program: create a personal access token on the account page, send it as `Authorization: Bearer rs_...`, ' +
          'upload inputs, make videos and receive signed webhooks when they finish. Every error answer is `{ "code", "message" }`.',
      },
      servers: [{ url: new URL(config.publicUrl).origin }],
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: (input) => {
      const { route, url } = input;
      const method = firstMethod(route.method);
      // The route's words, from its own config (openapi-words.ts: apiDoc, hiddenRoute).
      const doc = route.config?.doc;
      if (!url.startsWith('/api/') || input.schema?.hide || (doc && 'hidden' in doc)) return { ...hidden, url };
      // An undocumented route still appears (without words): the test names it.
      if (!doc) return jsonSchemaTransform({ ...input, schema: input.schema ?? {} });
      const schema = input.schema ?? {};
      const routeFacts: RouteFacts = {
        url,
        doc,
        tokenScope: route.config?.tokenScope,
        rateLimited: Boolean(route.config && 'rateLimit' in route.config && route.config.rateLimit),
        allowCrossSite: route.config?.allowCrossSite === true,
        takesInput: Boolean(schema.body ?? schema.querystring ?? schema.params),
      };
      facts.set(`${method.toLowerCase()} ${openApiPath(url)}`, routeFacts);
      const transformed = jsonSchemaTransform({ ...input, schema });
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          summary: doc.summary,
          ...(doc.description ? { description: doc.description } : {}),
          tags: [doc.tag],
          security: securityOf(routeFacts),
        },
      };
    },
    transformObject: (input) => {
      const document = jsonSchemaTransformObject(input) as Json & {
        paths?: Record<string, Record<string, Operation>>;
        components?: { schemas?: Json };
      };
      document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
      };
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        for (const method of HTTP_METHODS) {
          const operation = item[method];
          const routeFacts = facts.get(`${method} ${path}`);
          if (operation && routeFacts) completeOperation(operation, routeFacts, method);
        }
      }
      const listed = document.paths?.['/api/video-generation']?.get?.responses?.['200'];
      const video = (jsonMedia(listed)?.schema as Json | undefined)?.items;
      if (video) document.webhooks = webhookEvents(video);
      return document;
    },
  });

  await app.register(swaggerUi, {
    routePrefix: DOCS_URL,
    // Served under the app's own content security policy: the page loads only its own scripts
    // (no inline script), and the validator badge, the one outside address, is off.
    uiConfig: { deepLinking: true, validatorUrl: null, persistAuthorization: false },
    theme: { title: 'Reelsmith API reference' },
    uiHooks: {},
  });

  app.get(OPENAPI_URL, hidden, async (_request, reply) => reply.type('application/json').send(app.swagger()));
}
