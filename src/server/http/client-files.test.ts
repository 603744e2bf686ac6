import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { PREVIEW_ONLY_NOTE } from '../../shared/installation';
import { pickEncoding } from './client-files';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe('precompressed client files and the installable app', () => {
  let c: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-client-'));
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(
      path.join(clientDir, 'index.html'),
      `<html><head><meta content="__SUPPORT_EMAIL__"></head><body>${'app '.repeat(500)}</body></html>`,
    );
    const asset = path.join(clientDir, 'assets', 'index-abc123.js');
    writeFileSync(asset, SCRIPT);
    writeFileSync(`${asset}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${asset}.gz`, gzipSync(SCRIPT));
    mkdirSync(path.join(clientDir, '.prerender'));
    writeFileSync(
      path.join(clientDir, '.prerender', 'landing.html'),
      `<html><head><meta content="__SUPPORT_EMAIL__"></head><body><div id="root" data-prerendered-landing><h1>Turn an idea into a short AI video</h1></div></body></html>`,
    );
    writeFileSync(path.join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(
      path.join(clientDir, 'manifest.webmanifest'),
      JSON.stringify({ name: 'Reelsmith', short_name: 'Reelsmith' }),
    );
    c = await createTestApp({ CLIENT_DIR: clientDir, SUPPORT_EMAIL: 'help@reelsmith.test' });
  });
  afterAll(async () => {
    await c.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('sends a hashed asset as brotli, gzip or plain by Accept-Encoding, immutable, varying on it', async () => {
    const br = await c.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await c.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await c.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('compresses the app shell once, with the support address, uncached and varying on Accept-Encoding', async () => {
    for (const url of ['/index.html', '/generator']) {
      const response = await c.app.inject({ url, headers: { 'accept-encoding': 'br;q=1, gzip;q=0.5' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('content="help@reelsmith.test"');
    }
    const gz = await c.app.inject({ url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await c.app.inject({ url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('help@reelsmith.test');
  });

  it('sends the prerendered landing page for "/" without a session cookie, and the app shell with one', async () => {
    const visitor = await c.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.headers.vary).toMatch(/accept-encoding/i);
    expect(visitor.headers.vary).toMatch(/cookie/i);
    expect(visitor.headers['cache-control']).toBe('no-cache');
    const page = brotliDecompressSync(visitor.rawPayload).toString();
    expect(page).toContain('Turn an idea into a short AI video');
    expect(page).toContain('content="help@reelsmith.test"');

    // Any session cookie, even a stale one: the app shell asks who is signed in.
    const signedIn = await c.app.inject({ url: '/', headers: { cookie: `rs_session=${'a'.repeat(43)}` } });
    expect(signedIn.headers.vary).toMatch(/cookie/i);
    expect(signedIn.body).not.toContain('data-prerendered-landing');
    expect(signedIn.body).toContain('app app');

    // Other addresses are always the app shell; the prerendered file is never served as it is.
    const other = await c.app.inject({ url: '/generator' });
    expect(other.body).not.toContain('data-prerendered-landing');
    expect((await c.app.inject({ url: '/.prerender/landing.html' })).body).not.toContain('__SUPPORT_EMAIL__');
  });

  it('answers an address no page has with 404 and the app shell (its "not found" page), every page with 200', async () => {
    for (const url of ['/nowhere', '/generator/extra', '/admin/nothing', '/watch/', '/watch/a/b']) {
      const response = await c.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('app app');
    }
    for (const url of ['/generator', '/generator/', '/admin/safety', '/watch/abc123', '/login?next=%2Fmedia']) {
      expect((await c.app.inject({ url })).statusCode, url).toBe(200);
    }
    // A missing hashed asset and an unknown API address stay plain 404s, not the app shell.
    expect((await c.app.inject({ url: '/assets/gone.js' })).body).not.toContain('app app');
    expect((await c.app.inject({ url: '/api/nothing' })).headers['content-type']).toMatch(/json/);
  });

  it('serves the web manifest and the service worker with their types, never cached for long', async () => {
    const manifest = await c.app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ short_name: 'Reelsmith' });
    const worker = await c.app.inject({ url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
  });

  it('reads Accept-Encoding preferences, refusals included', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
  });
});

describe("the operator's retention in the pages", () => {
  it('fills VIDEO_RETENTION_HOURS and KEEP_VIDEOS_FOR into the app shell and the landing page as they are sent', async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-client-'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<html><head><meta name="reelsmith:video-retention-hours" content="__VIDEO_RETENTION_HOURS__" /><meta name="reelsmith:keep-videos-for" content="__KEEP_VIDEOS_FOR__" /></head><body></body></html>',
    );
    mkdirSync(path.join(clientDir, '.prerender'));
    writeFileSync(
      path.join(clientDir, '.prerender', 'landing.html'),
      '<html><head><meta name="reelsmith:video-retention-hours" content="__VIDEO_RETENTION_HOURS__" /></head><body><div id="root" data-prerendered-landing><p>Videos are kept for <!-- -->__VIDEO_RETENTION_WORDS__<!-- -->, so download the ones you love.</p></div></body></html>',
    );
    const app = await createTestApp({
      CLIENT_DIR: clientDir,
      VIDEO_RETENTION_HOURS: '1',
      KEEP_VIDEOS_FOR: 'subscribers,admins',
    });
    try {
      const landing = (await app.app.inject({ url: '/' })).body;
      expect(landing).toContain('Videos are kept for <!-- -->1 hour<!-- -->, so download');
      expect(landing).toContain('content="1"');
      const shell = (await app.app.inject({ url: '/generator' })).body;
      expect(shell).toContain('name="reelsmith:video-retention-hours" content="1"');
      expect(shell).toContain('name="reelsmith:keep-videos-for" content="subscribers,admins"');
      expect(shell).not.toContain('__');
    } finally {
      await app.close();
      rmSync(clientDir, { recursive: true, force: true });
    }
  });

  it('says the retention an administrator saves on the settings page in the next pages sent, with no restart', async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-client-'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<html><head><meta name="reelsmith:video-retention-hours" content="__VIDEO_RETENTION_HOURS__" /><meta name="reelsmith:keep-videos-for" content="__KEEP_VIDEOS_FOR__" /></head><body></body></html>',
    );
    const app = await createTestApp({ CLIENT_DIR: clientDir });
    try {
      expect((await app.app.inject({ url: '/generator' })).body).toContain('content="24"');
      const cookie = await signIn(app.app, await createUser(app.db, { isAdmin: true }));
      const saved = await injectJson(app.app, 'PUT', '/api/admin/settings/rules', {
        cookie,
        body: { videoHours: 168, keepFor: ['admins'] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const shell = (await app.app.inject({ url: '/generator' })).body;
      expect(shell).toContain('name="reelsmith:video-retention-hours" content="168"');
      expect(shell).toContain('name="reelsmith:keep-videos-for" content="admins"');
    } finally {
      await app.close();
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

describe('what the installation makes, in the pages', () => {
  const PAGE =
    '<html data-payments="__PAYMENTS__"><head><meta name="reelsmith:preview-note" content="__PREVIEW_NOTE__" /><meta name="reelsmith:assist" content="__ASSIST__" /></head><body><div id="root" data-prerendered-landing><p data-preview-note>__PREVIEW_NOTE__</p></div></body></html>';

  async function pagesOf(env: Record<string, string>) {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-client-'));
    writeFileSync(path.join(clientDir, 'index.html'), PAGE);
    mkdirSync(path.join(clientDir, '.prerender'));
    writeFileSync(path.join(clientDir, '.prerender', 'landing.html'), PAGE);
    const app = await createTestApp({ CLIENT_DIR: clientDir, ...env });
    try {
      return {
        landing: (await app.app.inject({ url: '/' })).body,
        shell: (await app.app.inject({ url: '/generator' })).body,
      };
    } finally {
      await app.close();
      rmSync(clientDir, { recursive: true, force: true });
    }
  }

  it('says before any script that a keyless server makes previews, and that its AI assist is local rules', async () => {
    const { landing, shell } = await pagesOf({});
    for (const page of [landing, shell]) {
      expect(page).toContain(`content="${PREVIEW_ONLY_NOTE}"`);
      expect(page).toContain('name="reelsmith:assist" content="local"');
      expect(page).not.toContain('__');
    }
    expect(landing).toContain(`<p data-preview-note>${PREVIEW_ONLY_NOTE}</p>`);
    // No Stripe keys: the pages say so, and the landing page shows who to ask instead of prices.
    for (const page of [landing, shell]) expect(page).toContain('<html data-payments="off">');
  });

  it('says a server with Stripe keys takes payments', async () => {
    const { landing, shell } = await pagesOf({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' });
    for (const page of [landing, shell]) expect(page).toContain('<html data-payments="on">');
  });

  it('says nothing of previews once a real model is connected, and names a model for AI assist', async () => {
    const { landing, shell } = await pagesOf({ FAL_KEY: 'fal-test-key', GEMINI_API_KEY: 'gemini-test-key' });
    for (const page of [landing, shell]) {
      expect(page).toContain('name="reelsmith:preview-note" content=""');
      expect(page).toContain('name="reelsmith:assist" content="model"');
      expect(page).not.toContain('previews');
    }
    expect(landing).toContain('<p data-preview-note></p>');
  });
});
