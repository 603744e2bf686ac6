import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyContextConfig } from 'fastify';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finishBodySchema, finishingCatalogueSchema } from '../../shared/finishing';
import { enhanceTextRequestSchema } from '../../shared/ai';
import { createdTokenSchema, createTokenSchema } from '../../shared/api-tokens';
import { loginSchema, messageSchema, registerSchema } from '../../shared/auth';
import {
  createdGenerationSchema,
  createGenerationSchema,
  extendGenerationSchema,
  generationRecordSchema,
} from '../../shared/generations';
import { costEstimateRequestSchema } from '../../shared/money/pricing';
import { uploadCompleteSchema, uploadTargetSchema } from '../../shared/uploads';
import { createWebhookSchema, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../shared/webhooks';
import type { TestApp } from '../../../tests/support/app';
import { createTestAppSeeingRoutes } from '../../../tests/support/routes';
import { DOCS_URL, OPENAPI_URL, openApiPath } from './openapi';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, Json> };
  responses?: Record<string, { description?: string; content?: Record<string, Json> }>;
}
type Document = Json & { paths: Record<string, Record<string, Operation>>; components: Json };

let t: TestApp;
let document: Document;
/** Every route the app registered, as `METHOD /path`, with its config's `doc` (the API reference's words). */
const routeDocs = new Map<string, FastifyContextConfig['doc']>();

beforeAll(async () => {
  t = await createTestAppSeeingRoutes((route) => {
    for (const method of [route.method].flat()) routeDocs.set(`${method} ${route.url}`, route.config?.doc);
  });
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_URL });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  document = response.json<Document>();
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const isApiRoute = (route: string) => {
  const [method, path = ''] = route.split(' ');
  return (
    method !== 'HEAD' &&
    path.startsWith('/api/') &&
    path !== OPENAPI_URL &&
    path !== DOCS_URL &&
    !path.startsWith(`${DOCS_URL}/`)
  );
};

/** What names an error code only for the document: the routes' words and the answers they list. */
function isApiWords(node: ts.Node, source: ts.SourceFile): boolean {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
    return ['apiDoc', 'hiddenRoute'].includes(node.expression.text);
  if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) return node.name.text === 'doc';
  if (ts.isVariableDeclaration(node) && node.type) return /\b(ErrorAnswer|RouteDoc)\b/.test(node.type.getText(source));
  return false;
}

/**
 * A source file without its API reference words (they sit beside the routes, whose handlers answer
 * the codes), so a code counts only where the server really sends it.
 */
function withoutApiWords(file: string, text: string): string {
  if (!/apiDoc|hiddenRoute|ErrorAnswer|RouteDoc|doc:/.test(text)) return text;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const cuts: [number, number][] = [];
  const visit = (node: ts.Node): void => {
    if (isApiWords(node, source)) cuts.push([node.getStart(source), node.getEnd()]);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return cuts.reduceRight((rest, [start, end]) => rest.slice(0, start) + rest.slice(end), text);
}

function operationOf(route: string): Operation | undefined {
  const [method = '', path = ''] = route.split(' ');
  return document.paths[openApiPath(path)]?.[method.toLowerCase()];
}

const mediaOf = (part: { content?: Record<string, Json> } | undefined) => Object.values(part?.content ?? {});
const hasExample = (media: Json) => media.example !== undefined || media.examples !== undefined;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    // The parser dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('documents every /api route with a summary, a tag, its error answers and an example', () => {
    const routes = [...routeDocs.keys()].filter(isApiRoute);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes).toContain('POST /api/video-generation');
    const problems: string[] = [];
    for (const route of routes) {
      const doc = routeDocs.get(route);
      if (!doc) {
        problems.push(
          `${route}: no words for the API reference: give the route, in its routes file, config.doc = apiDoc(tag, { summary, ... }) (or hiddenRoute(why) for a browser page); see src/server/http/openapi-words.ts`,
        );
        continue;
      }
      if ('hidden' in doc) {
        if (operationOf(route)) problems.push(`${route}: hidden, but in the document`);
        continue;
      }
      const operation = operationOf(route);
      if (!operation) {
        problems.push(`${route}: not in the document`);
        continue;
      }
      if (!operation.summary) problems.push(`${route}: no summary (its doc: apiDoc(...), beside the route)`);
      if (!operation.tags?.length) problems.push(`${route}: no tag`);
      const statuses = Object.keys(operation.responses ?? {});
      if (!statuses.some((s) => /^4\d\d$/.test(s))) problems.push(`${route}: no 4xx answer`);
      if (!statuses.some((s) => /^2\d\d$/.test(s))) problems.push(`${route}: no success answer`);
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        const media = operation.responses?.[status]?.content?.['application/json'];
        if (!media || !hasExample(media)) problems.push(`${route}: ${status} without an error example`);
      }
      // Every JSON or text success answer and JSON body shows an example (files and streams of bytes need none).
      const success = statuses.filter((s) => s.startsWith('2')).flatMap((s) => mediaOf(operation.responses?.[s]));
      const body = mediaOf(operation.requestBody);
      for (const media of [...success, ...body]) {
        const schema = media.schema as Json | undefined;
        if (schema?.format !== 'binary' && !(schema?.properties && JSON.stringify(schema).includes('"binary"')))
          if (!hasExample(media)) problems.push(`${route}: a success answer or body without an example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares the bearer token and the cookie, and each route’s scope from its tokenScope', () => {
    expect(document.components.securitySchemes).toMatchObject({
      accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'rs_...' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'rs_session' },
    });
    expect(operationOf('POST /api/video-generation')?.security).toEqual([
      { accessToken: ['videos:write'] },
      { sessionCookie: [] },
    ]);
    expect(operationOf('PUT /api/uploads')?.security).toContainEqual({ accessToken: ['uploads:write'] });
    expect(operationOf('GET /api/video-generation')?.security).toContainEqual({ accessToken: ['videos:read'] });
    // Default deny: admin, token and webhook management take the session cookie only.
    for (const route of ['GET /api/admin/users', 'POST /api/account/tokens', 'POST /api/account/webhooks'])
      expect(operationOf(route)?.security, route).toEqual([{ sessionCookie: [] }]);
    expect(operationOf('POST /api/auth/login')?.security).toEqual([]);
    // Every scope a route names is one a token can have.
    const scopes = new Set(
      Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .flatMap((operation) => operation.security ?? [])
        .flatMap((requirement) => requirement.accessToken ?? []),
    );
    expect([...scopes].sort()).toEqual(['account:read', 'uploads:write', 'videos:read', 'videos:write']);
  });

  it('shows the error body, the Idempotency-Key header and real examples on POST /api/video-generation', () => {
    const operation = operationOf('POST /api/video-generation') as Operation & { parameters?: Json[] };
    expect(operation.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
    const created = operation.responses?.['201']?.content?.['application/json'];
    expect(created?.example).toMatchObject({ status: 'pending', group: [expect.objectContaining({})] });
    const refused = operation.responses?.['402']?.content?.['application/json'] as Json;
    expect(refused.schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(document.components.schemas).toMatchObject({ Error: { required: ['code', 'message'] } });
    expect(refused.examples).toMatchObject({
      insufficient_credits: { value: { code: 'insufficient_credits', message: 'Need 4 credits. You have 1.' } },
    });
    expect(operation.responses?.['403']?.content?.['application/json']?.examples).toHaveProperty('missing_scope');
    expect(operation.responses?.['422']?.content?.['application/json']?.examples).toHaveProperty(
      'idempotency_key_reused',
    );
  });

  it('shows hand-written examples that the routes’ own contracts accept (no field they do not know)', () => {
    const strict = (schema: z.ZodType) => (schema instanceof z.ZodObject ? schema.strict() : schema);
    const body = (route: string) => operationOf(route)?.requestBody?.content?.['application/json']?.example;
    const answer = (route: string, status: string) =>
      operationOf(route)?.responses?.[status]?.content?.['application/json']?.example;
    const checks: [string, unknown, z.ZodType][] = [
      ['POST /api/video-generation body', body('POST /api/video-generation'), createGenerationSchema],
      ['POST /api/video-generation 201', answer('POST /api/video-generation', '201'), createdGenerationSchema],
      ['GET /api/video-generation 200', answer('GET /api/video-generation', '200'), z.array(generationRecordSchema)],
      ['DELETE /api/video-generation/:id 200', answer('DELETE /api/video-generation/:id', '200'), messageSchema],
      [
        'POST /api/video-generation/:id/extend body',
        body('POST /api/video-generation/:id/extend'),
        extendGenerationSchema,
      ],
      ['POST /api/video-generation/:id/finish body', body('POST /api/video-generation/:id/finish'), finishBodySchema],
      ['GET /api/finishing 200', answer('GET /api/finishing', '200'), finishingCatalogueSchema],
      [
        'POST /api/video-generation/:id/last-frame 201',
        answer('POST /api/video-generation/:id/last-frame', '201'),
        uploadCompleteSchema,
      ],
      ['PUT /api/uploads 200', answer('PUT /api/uploads', '200'), uploadCompleteSchema],
      ['POST /api/objects/upload 200', answer('POST /api/objects/upload', '200'), uploadTargetSchema],
      ['POST /api/account/tokens body', body('POST /api/account/tokens'), createTokenSchema],
      ['POST /api/account/tokens 201', answer('POST /api/account/tokens', '201'), createdTokenSchema],
      ['POST /api/account/webhooks body', body('POST /api/account/webhooks'), createWebhookSchema],
      ['POST /api/prompts/enhance-text body', body('POST /api/prompts/enhance-text'), enhanceTextRequestSchema],
      ['POST /api/auth/register body', body('POST /api/auth/register'), registerSchema],
      ['POST /api/auth/login body', body('POST /api/auth/login'), loginSchema],
      ['POST /api/credits/estimate body', body('POST /api/credits/estimate'), costEstimateRequestSchema],
    ];
    const refused = checks.flatMap(([where, example, schema]) => {
      const result = strict(schema).safeParse(example);
      return result.success ? [] : [`${where}: ${result.error.message}`];
    });
    expect(refused).toEqual([]);
  });

  it('names only error codes the server really answers', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const source = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.ts$/.test(file) && !file.endsWith('.test.ts') && !file.includes('openapi'))
      .map((file) => withoutApiWords(file, readFileSync(path.join(root, file), 'utf8')))
      .join('\n');
    const codes = new Set(
      Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .flatMap((operation) => Object.entries(operation.responses ?? {}))
        .filter(([status]) => /^[45]/.test(status))
        .flatMap(([, answer]) => Object.keys((answer.content?.['application/json']?.examples as Json) ?? {})),
    );
    expect(codes.size).toBeGreaterThan(30);
    expect([...codes].filter((code) => !source.includes(`'${code}'`) && !source.includes(`"${code}"`))).toEqual([]);
  });

  it('documents every webhook event the server sends, the test event too, each signed rather than authorised', () => {
    const webhooks = document.webhooks as Record<string, { post: Operation & { parameters?: Json[] } }>;
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
    for (const [type, { post }] of Object.entries(webhooks)) {
      expect(post.security, type).toEqual([]);
      expect(post.parameters?.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    expect(webhooks['webhook.test']?.post.operationId).toBe('onWebhookTest');
  });

  it('documents the video events, each carrying the video as the list answers it', () => {
    const webhooks = document.webhooks as Record<string, { post: Operation & { parameters?: Json[] } }>;
    const completed = webhooks['video.completed']?.post;
    expect(completed?.parameters?.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const body = completed?.requestBody?.content?.['application/json'] as { schema: Json; example: Json };
    const listed = operationOf('GET /api/video-generation')?.responses?.['200']?.content?.['application/json'];
    expect((body.schema.properties as Json).data).toEqual((listed?.schema as Json).items);
    expect(body.example).toMatchObject({ type: 'video.completed', data: { status: 'completed' } });
  });

  it('names its server relatively, so clients and the reference page call the address they read it from', () => {
    expect(document.servers).toEqual([{ url: '/', description: 'This server' }]);
  });

  it('gives every operation a unique camelCase operationId, the named ones of the token routes among them', () => {
    const ids = [
      ...Object.values(document.paths).flatMap((item) => Object.values(item)),
      ...Object.values(document.webhooks as Record<string, Record<string, Operation>>).flatMap((item) =>
        Object.values(item),
      ),
    ].map((operation) => operation.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(operationOf('POST /api/video-generation')?.operationId).toBe('createVideo');
    expect(operationOf('GET /api/video-generation')?.operationId).toBe('listVideos');
    expect(operationOf('DELETE /api/video-generation/:id')?.operationId).toBe('deleteVideo');
    // Without a name of its own: the method and the path.
    expect(operationOf('POST /api/admin/jobs/:id/cancel')?.operationId).toBe('postAdminJobsByIdCancel');
  });

  it('documents the conditional, ranged and replayed answers with the headers that carry them', () => {
    const listed = operationOf('GET /api/video-generation') as Operation & { parameters?: Json[] };
    expect(listed.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'If-None-Match' }));
    expect(listed.responses?.['200']).toMatchObject({ headers: { ETag: { required: true } } });
    expect(listed.responses?.['304']).toMatchObject({ headers: { ETag: { required: true } } });
    expect(listed.responses?.['429']).toMatchObject({ headers: { 'Retry-After': { required: true } } });

    const media = operationOf('GET /api/media/:id') as Operation & { parameters?: Json[] };
    expect(media.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Range' }));
    expect(Object.keys(media.responses?.['200']?.content ?? {})).toEqual(['video/*', 'image/*', 'audio/*']);
    expect(media.responses?.['206']).toMatchObject({ headers: { 'Content-Range': { required: true } } });
    expect(media.responses?.['302']).toMatchObject({ headers: { Location: { required: true } } });
    expect(media.responses?.['416']).toMatchObject({ headers: { 'Content-Range': { required: true } } });

    const created = operationOf('POST /api/video-generation');
    expect(created?.responses?.['201']).toMatchObject({ headers: { 'Idempotent-Replayed': { schema: {} } } });
    expect(
      operationOf('POST /api/admin/jobs/:id/rerun')?.responses?.['409']?.content?.['application/json']?.examples,
    ).toHaveProperty('job_not_failed');
  });

  it('documents the live event stream as text/event-stream and hides the browser pages', () => {
    expect(operationOf('GET /api/events')?.responses?.['200']?.content).toHaveProperty('text/event-stream');
    expect(document.paths['/api/logout']).toBeUndefined();
    expect(document.paths[OPENAPI_URL]).toBeUndefined();
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
  });

  it('answers the same document again without building it twice', async () => {
    const again = await t.app.inject({ method: 'GET', url: OPENAPI_URL });
    expect(again.body).toBe(JSON.stringify(document));
    expect(again.headers['cache-control']).toBe('no-store');
  });
});

describe('the reference page', () => {
  it('loads only its own scripts, under the app’s content security policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${DOCS_URL}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Reelsmith API reference</title>');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    // No inline script: every <script> names a file, and each is served from our own files.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', inline = ''] of scripts) {
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes)?.[1] ?? '';
      expect(src).toMatch(/^\.\/static\//);
      const file = await t.app.inject({ method: 'GET', url: `${DOCS_URL}/${src.slice(2)}` });
      expect(file.statusCode, src).toBe(200);
    }
    const initializer = await t.app.inject({ method: 'GET', url: `${DOCS_URL}/static/swagger-initializer.js` });
    expect(initializer.body).toContain('validatorUrl: null');
    expect(initializer.body).toContain("url: resolveUrl('./json')");
    const json = await t.app.inject({ method: 'GET', url: `${DOCS_URL}/json` });
    expect(json.json()).toEqual(document);
  });
});
