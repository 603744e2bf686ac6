import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Checks answers against the OpenAPI document (GET /api/openapi.json) as a client generated from it
 * would read them: the status is one the operation lists, each header it says is always sent is
 * there (and fits its schema), the headers a client acts on (ETag, Retry-After, Location, ...) are
 * documented where they are sent, the body is of a documented type, a JSON body validates against
 * its schema (JSON Schema 2020-12, `$ref`s into components resolved), and an error's `code` is one
 * the document lists for that status.
 */

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  examples?: Record<string, unknown>;
}
interface Header {
  $ref?: string;
  required?: boolean;
  schema?: Json;
}
interface Answer {
  description?: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}
interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Answer>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas?: Json; headers?: Record<string, Header> };
}

/** What the checker reads of a webhook request the server sent (as a receiver got it). */
export interface SentWebhook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What the checker reads of an answer (inject's response, or one read over HTTP). */
export interface Answered {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Headers a client acts on: where the server sends one, the document must say so. */
const READ_BY_CLIENTS = [
  'etag',
  'retry-after',
  'idempotent-replayed',
  'location',
  'content-range',
  'x-next-cursor',
  'set-cookie',
];

const COMPONENTS_ID = 'urn:reelsmith:openapi-components';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** `#/components/schemas/X` → the id that schema is registered under with Ajv. */
function pointIntoComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointIntoComponents);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')
        ? `${COMPONENTS_ID}/${inner.slice('#/components/schemas/'.length)}`
        : pointIntoComponents(inner),
    ]),
  );
}

/** The documented media type an answer's Content-Type falls under: exact, then `type/*`, then `*\/*`. */
function mediaTypeOf(contentType: string, documented: string[]): string | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const family = `${type.split('/')[0] ?? ''}/*`;
  return [type, family, '*/*'].find((candidate) => documented.includes(candidate));
}

function headerValue(value: string | string[] | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

export interface Contract {
  /** Every operation of the document, as `METHOD /path/{param}`. */
  operations: string[];
  /** What in this answer the document does not say ([] when it keeps to it). */
  check(operation: string, answer: Answered): string[];
  /**
   * What in this webhook request the document's `webhooks` entry for its `type` does not say: the
   * entry exists, every header it requires was sent, and the body fits its schema.
   */
  checkWebhook(request: SentWebhook): string[];
}

export function contractOf(document: OpenApiDocument): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  for (const [name, schema] of Object.entries(document.components.schemas ?? {}))
    ajv.addSchema(pointIntoComponents(schema) as Json, `${COMPONENTS_ID}/${name}`);
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (key: string, schema: Json) => {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(pointIntoComponents(schema) as Json);
      validators.set(key, validate);
    }
    return validate;
  };
  const resolveHeader = (header: Header): Header => {
    const name = header.$ref?.replace('#/components/headers/', '');
    return name ? (document.components.headers?.[name] ?? header) : header;
  };

  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => HTTP_METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

  function check(operationKey: string, answer: Answered): string[] {
    const [method = '', path = ''] = operationKey.split(' ');
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation) return [`${operationKey} is not in the document`];
    const status = String(answer.statusCode);
    const documented = operation.responses?.[status];
    const where = `${operationKey} ${status}`;
    if (!documented)
      return [
        `${where}: the document lists only ${Object.keys(operation.responses ?? {}).join(', ')} (body: ${answer.body.slice(0, 200)})`,
      ];
    const problems: string[] = [];

    const headers = Object.fromEntries(
      Object.entries(documented.headers ?? {}).map(([name, header]) => [name.toLowerCase(), resolveHeader(header)]),
    );
    for (const [name, header] of Object.entries(headers)) {
      const value = headerValue(answer.headers[name]);
      if (value === undefined) {
        if (header.required) problems.push(`${where}: no ${name} header, which the document says is always sent`);
        continue;
      }
      if (name === 'set-cookie' || !header.schema) continue;
      const typed = header.schema.type === 'integer' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
      if (!validatorOf(`header ${JSON.stringify(header.schema)}`, header.schema)(typed))
        problems.push(`${where}: ${name}: ${value} does not fit ${JSON.stringify(header.schema)}`);
    }
    for (const name of READ_BY_CLIENTS)
      if (answer.headers[name] !== undefined && !headers[name])
        problems.push(
          `${where}: sends ${name} (${headerValue(answer.headers[name])}), which the document does not list`,
        );

    const content = documented.content ?? {};
    const contentType = headerValue(answer.headers['content-type']);
    if (Object.keys(content).length === 0) {
      if (answer.body !== '')
        problems.push(`${where}: a body the document does not describe: ${answer.body.slice(0, 200)}`);
      return problems;
    }
    const mediaType = contentType ? mediaTypeOf(contentType, Object.keys(content)) : undefined;
    if (!mediaType) {
      problems.push(`${where}: Content-Type ${contentType} is not one of ${Object.keys(content).join(', ')}`);
      return problems;
    }
    const media = content[mediaType];
    if (!mediaType.endsWith('json') || !media?.schema) return problems;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, `${where}: the body is not JSON: ${answer.body.slice(0, 200)}`];
    }
    const validate = validatorOf(`${where} ${mediaType}`, media.schema);
    if (!validate(body))
      problems.push(
        `${where}: the body does not fit its schema: ${ajv.errorsText(validate.errors)} (body: ${answer.body.slice(0, 300)})`,
      );
    const code = (body as { code?: unknown } | null)?.code;
    if (answer.statusCode >= 400 && media.examples && typeof code === 'string' && !(code in media.examples))
      problems.push(
        `${where}: answered code ${code}, which the document does not list (${Object.keys(media.examples).join(', ')})`,
      );
    return problems;
  }

  function checkWebhook(request: SentWebhook): string[] {
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return [`a webhook whose body is not JSON: ${request.body.slice(0, 200)}`];
    }
    const type = String((body as { type?: unknown } | null)?.type);
    const operation = document.webhooks?.[type]?.post;
    if (!operation) return [`webhook ${type}: not in the document's webhooks`];
    const problems = (operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'header' && parameter.required)
      .filter((parameter) => request.headers[parameter.name.toLowerCase()] === undefined)
      .map((parameter) => `webhook ${type}: no ${parameter.name} header, which the document requires`);
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [...problems, `webhook ${type}: the document gives no JSON schema for its body`];
    const validate = validatorOf(`webhook ${type}`, schema);
    if (!validate(body))
      problems.push(
        `webhook ${type}: the body does not fit its schema: ${ajv.errorsText(validate.errors)} (body: ${request.body.slice(0, 300)})`,
      );
    return problems;
  }

  return { operations, check, checkWebhook };
}

const NO_SUCH_ID = '0d9a4c1e-5b7f-4e2a-8c3d-1f6b9e2a7c54';

/** A body to send: the request example the document shows for the operation. */
export const EXAMPLE = Symbol('the documented example');

/** A request of the contract test; `params` not given are an id that names nothing. */
export interface Call {
  cookie?: string;
  token?: string;
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  payload?: Buffer | string;
  headers?: Record<string, string>;
  /** The status this call is meant to get; without one, anything below 500 the document lists. */
  status?: number;
}

function documentedExample(document: OpenApiDocument, route: string): unknown {
  const [method = '', template = ''] = route.split(' ');
  const operation = document.paths[template]?.[method.toLowerCase()] as
    { requestBody?: { content?: Record<string, { example?: unknown }> } } | undefined;
  return operation?.requestBody?.content?.['application/json']?.example;
}

const answered = (response: LightMyRequestResponse): Answered => ({
  statusCode: response.statusCode,
  headers: response.headers,
  body: response.body,
});

export interface Caller {
  /** Sends one request and checks its answer against the document: `route` is `METHOD /path/{param}`. */
  call: (route: string, options?: Call) => Promise<LightMyRequestResponse>;
  /** The operations called so far. */
  called: Set<string>;
}

/**
 * Calls the app and checks each answer (a 5xx only where the call expects it); a tagged GET is asked
 * for again with its tag (304), a file in part (206) and past its end (416).
 */
export function callerOf(app: FastifyInstance, document: OpenApiDocument, contract: Contract): Caller {
  const called = new Set<string>();
  async function call(route: string, options: Call = {}): Promise<LightMyRequestResponse> {
    const [method = 'GET', template = ''] = route.split(' ');
    const url = template.replace(/\{(\w+)\}/g, (_, name: string) => options.params?.[name] ?? NO_SUCH_ID);
    const body = options.body === EXAMPLE ? documentedExample(document, route) : options.body;
    const request: InjectOptions = {
      method,
      url: options.query ? `${url}?${options.query}` : url,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    };
    const response = await app.inject(request);
    called.add(route);
    expect(contract.check(route, answered(response)), route).toEqual([]);
    if (options.status) expect(response.statusCode, `${route}: ${response.body}`).toBe(options.status);
    else expect(response.statusCode, `${route}: ${response.body}`).toBeLessThan(500);
    if (method === 'GET' && response.statusCode === 200) await followUps(route, request, response);
    return response;
  }

  /** A tagged answer asked for again with its tag (304), and a file asked for in part (206, 416). */
  async function followUps(route: string, request: InjectOptions, response: LightMyRequestResponse): Promise<void> {
    const again = async (headers: Record<string, string>, status: number) => {
      const answer = await app.inject({ ...request, headers: { ...request.headers, ...headers } });
      expect(contract.check(route, answered(answer)), `${route} with ${JSON.stringify(headers)}`).toEqual([]);
      expect(answer.statusCode, `${route} with ${JSON.stringify(headers)}`).toBe(status);
    };
    const etag = response.headers.etag;
    if (typeof etag === 'string') await again({ 'if-none-match': etag }, 304);
    if (response.headers['accept-ranges'] === 'bytes') {
      await again({ range: 'bytes=0-3' }, 206);
      await again({ range: `bytes=${response.rawPayload.length}-` }, 416);
    }
  }

  return { call, called };
}
