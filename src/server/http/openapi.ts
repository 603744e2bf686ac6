import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { TOKEN_PREFIX } from '../../shared/api-tokens';
import {
  addResponseHeaders,
  commonErrors,
  ERROR_SCHEMA,
  errorResponses,
  kindAnswers,
  RATE_LIMIT_HEADERS,
  type RouteFacts,
} from './openapi-answers';
import { type Json, sampleOf } from './openapi-samples';
import { webhookEvents } from './openapi-webhooks';
import { API_TAGS, type MediaDoc, type RouteDoc } from './openapi-words';

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

type Operation = Json & { responses?: Record<string, Json>; requestBody?: Json; parameters?: Json[] };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `/api/video-generation/:id` → `/api/video-generation/{id}`, as the document writes paths. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const firstMethod = (method: RouteOptions['method']) => (Array.isArray(method) ? method[0] : method) ?? 'GET';

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operationId of a route whose words name none: its method, then each segment of its path after
 * `/api/` in camel case, a parameter as `By` and its name. `post /api/admin/jobs/{id}/cancel` →
 * `postAdminJobsByIdCancel`. Paths are unique per method, so these are too (the build checks it).
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .flatMap((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      return parameter ? ['by', parameter] : segment.split(/[-_.]/);
    });
  return method.toLowerCase() + words.filter(Boolean).map(capitalised).join('');
}

const jsonMedia = (operationPart: Json | undefined): Json | undefined =>
  (operationPart?.content as Record<string, Json> | undefined)?.['application/json'];

/** Adds to one operation what the zod schemas cannot say: errors, examples, headers, raw bodies. */
function completeOperation(operation: Operation, facts: RouteFacts, method: string): void {
  const { doc } = facts;
  const responses = (operation.responses ??= {});
  const kind = kindAnswers(doc);
  Object.assign(responses, kind.responses);
  for (const [status, answer] of Object.entries(doc.responses ?? {})) {
    responses[status] = { description: answer.description, ...(answer.content ? { content: answer.content } : {}) };
  }
  // A route that answers something else than 200 (201, 204) has no "Default Response" 200.
  if (!doc.servesFile && doc.responses && !doc.responses[200] && responses['200']?.description === 'Default Response')
    delete responses['200'];
  for (const [status, answer] of Object.entries(responses)) {
    if (!status.startsWith('2')) continue;
    if (answer.description === 'Default Response') answer.description = status === '201' ? 'Created' : 'OK';
    const media = jsonMedia(answer);
    if (media && media.example === undefined && media.examples === undefined)
      media.example = doc.example ?? sampleOf(media.schema);
  }
  Object.assign(responses, errorResponses([...commonErrors(facts, method), ...(doc.errors ?? [])]));
  addResponseHeaders(responses, facts);
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

  if (doc.requestContent) {
    operation.requestBody = { required: true, content: mediaContent(doc.requestContent) };
  } else {
    const media = jsonMedia(operation.requestBody);
    if (media && media.example === undefined) media.example = doc.requestExample ?? sampleOf(media.schema);
  }
  if (kind.parameters.length > 0) operation.parameters = [...(operation.parameters ?? []), ...kind.parameters];
}

/** Every operationId of the document, paths and webhooks, once: a duplicate stops the build, naming both. */
function requireUniqueOperationIds(document: Json): void {
  const seen = new Map<string, string>();
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [path, item] of Object.entries((document[section] ?? {}) as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const id = operation.operationId;
        if (typeof id !== 'string') continue;
        const where = `${method} ${path}`;
        const earlier = seen.get(id);
        if (earlier) throw new Error(`operationId ${id} is both ${earlier}'s and ${where}'s`);
        seen.set(id, where);
      }
    }
  }
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
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
      // Relative: the document's own server, whichever address it was fetched from (Swagger UI's
      // "Try it out" stays on the page's origin, which its content security policy allows).
      servers: [{ url: '/', description: 'This server' }],
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES, headers: RATE_LIMIT_HEADERS },
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
          operationId: doc.operationId ?? operationIdOf(method, openApiPath(url)),
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
        components?: { schemas?: Json; headers?: Json };
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
      requireUniqueOperationIds(document);
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
