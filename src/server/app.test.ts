import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleError } from '../../tests/setup/fail-on-console-error';
import { createTestApp, injectJson, type TestApp } from '../../tests/support/app';
import { uniqueEmail } from '../../tests/support/factories';
import { users } from './db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/api/test/explode', async () => {
      throw new Error('database password is hunter2');
    });
    app.get('/api/test/duplicate', async () => {
      throw Object.assign(new Error('Failed query'), {
        cause: Object.assign(new Error('duplicate key'), { code: '23505' }),
      });
    });
  });
});
afterAll(async () => {
  await t.close();
});

describe('bad input', () => {
  it('answers malformed JSON with 400 and writes nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "password": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'invalid_json', message: 'The request body is not valid JSON.' });
  });

  it('answers a missing body with 400 naming the body', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_failed');
  });

  it('answers a JSON body over 1 MB with 413 and writes nothing', async () => {
    const email = uniqueEmail('huge');
    const response = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password: 'longenough', firstName: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('body_too_large');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/xml' },
      payload: '<login/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('answers a JSON array where an object is expected with 400', async () => {
    const response = await injectJson(t.app, 'POST', '/api/auth/login', { body: [1, 2] });
    expect(response.statusCode).toBe(400);
  });
});

describe('errors', () => {
  it('turns an unknown error into a logged 500 with a generic message', async () => {
    const response = await injectJson(t.app, 'GET', '/api/test/explode');
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.code).toBe('internal_error');
    expect(body.message).toMatch(/^Something went wrong on our side\. Please try again\. \(reference [0-9a-f-]{36}\)$/);
    expect(response.body).not.toContain('hunter2');
  });

  it('turns a unique violation that slipped past a check into a 409', async () => {
    const response = await injectJson(t.app, 'GET', '/api/test/duplicate');
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('conflict');
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await injectJson(t.app, method, '/api/nothing-here');
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual({ code: 'not_found', message: `There is no ${method} /api/nothing-here here.` });
    }
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await injectJson(t.app, 'GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await injectJson(t.app, 'GET', '/readyz')).json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 503 when the database is gone', async () => {
    const other = await createTestApp();
    await other.testDb.database.close();
    const response = await injectJson(other.app, 'GET', '/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable' });
    await other.app.close();
    await other.testDb.drop();
  });
});

describe('security headers', () => {
  it('sends a content security policy that allows Stripe.js and forbids framing', async () => {
    const response = await injectJson(t.app, 'GET', '/healthz');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('security headers with S3 storage', () => {
  it('lets the browser reach the bucket for uploads and playback', async () => {
    const s3 = await createTestApp({
      S3_BUCKET: 'videos',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    try {
      const csp = String((await injectJson(s3.app, 'GET', '/healthz')).headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' https://api.stripe.com http://127.0.0.1:9000");
      expect(csp).toContain("media-src 'self' blob: http://127.0.0.1:9000");
    } finally {
      await s3.close();
    }
  });
});

describe('error reports', () => {
  const report = (overrides: Record<string, unknown> = {}) => ({
    message: 'Cannot read properties of undefined',
    stack: 'TypeError: at App',
    componentStack: '\n    at Page',
    url: 'http://localhost:3000/dashboard',
    userAgent: 'Mozilla/5.0',
    timestamp: new Date().toISOString(),
    errorId: `err_${Date.now()}_abc123def`,
    ...overrides,
  });

  it('keeps a report in the database', async () => {
    const body = report();
    const response = await injectJson(t.app, 'POST', '/api/errors/report', { body, remoteAddress: '192.0.2.1' });
    expect(response.statusCode).toBe(202);
    const { errorReports } = await import('./db/schema');
    const rows = await t.db.select().from(errorReports).where(eq(errorReports.errorId, body.errorId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ message: body.message, url: body.url });
  });

  it('refuses a report over 16 KB with 413 and a malformed one with 400', async () => {
    const big = await injectJson(t.app, 'POST', '/api/errors/report', {
      body: report({ stack: 'x'.repeat(17 * 1024) }),
      remoteAddress: '192.0.2.2',
    });
    expect(big.statusCode).toBe(413);
    const bad = await injectJson(t.app, 'POST', '/api/errors/report', {
      body: report({ errorId: 'nope' }),
      remoteAddress: '192.0.2.2',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('errorId');
  });

  it('rate-limits reports per client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const response = await injectJson(t.app, 'POST', '/api/errors/report', {
        body: report(),
        remoteAddress: '192.0.2.3',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});

describe('client files', () => {
  let c: TestApp;
  beforeAll(async () => {
    const clientDir = path.join(t.dataDir, 'client');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<html><head><meta name="reelsmith:support-email" content="__SUPPORT_EMAIL__"></head><body>app</body></html>',
    );
    writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(clientDir, 'robots.txt'), 'User-agent: *');
    c = await createTestApp({ CLIENT_DIR: clientDir, SUPPORT_EMAIL: 'help@reelsmith.test' });
  });
  afterAll(async () => {
    await c.close();
  });

  it('serves index.html for client routes, uncached, with the support email', async () => {
    for (const url of ['/', '/login', '/dashboard', '/some/unknown/page?x=1']) {
      const response = await injectJson(c.app, 'GET', url);
      // An address no page has is the app shell's "not found" page, answered as 404.
      expect(response.statusCode).toBe(url.startsWith('/some/') ? 404 : 200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('content="help@reelsmith.test"');
    }
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const asset = await injectJson(c.app, 'GET', '/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await injectJson(c.app, 'GET', '/robots.txt');
    expect(robots.headers['cache-control']).toBe('no-cache');
    expect((await injectJson(c.app, 'GET', '/assets/missing.js')).statusCode).toBe(404);
  });

  it('keeps unknown /api paths as JSON 404s', async () => {
    const response = await injectJson(c.app, 'GET', '/api/unknown');
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });
});

// Keeps the import used when no test in this file expects a console.error.
void expectConsoleError;
