import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { MAX_UPLOAD_BYTES } from '../../../shared/uploads';
import { uploads } from '../../db/schema';
import { createStorage } from '../../storage';
import { mediaUrl } from '../../storage/media-links';
import { resolveUploadRef } from './uploads.service';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
let clock = new Date('2026-11-22T10:00:00Z');
const now = () => clock;
let cookie: string;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { now });
  user = await createUser(t.db);
  cookie = await signIn(t.app, user);
});
afterAll(async () => {
  await t.close();
});

const storage = () => createStorage(t.config);
const deps = () => t.ctx;

async function target(as = cookie) {
  const response = await injectJson(t.app, 'POST', '/api/objects/upload', { cookie: as });
  expect(response.statusCode).toBe(200);
  return response.json<{ uploadURL: string; objectPath: string; method: string; fields: object }>();
}

function put(url: string, payload: Buffer | Readable, contentType = 'image/png') {
  return t.app.inject({ method: 'PUT', url, payload, headers: { 'content-type': contentType } });
}

const keyOf = (objectPath: string) => objectPath.replace(/^\/objects\//, '');

describe('upload targets', () => {
  it('needs a session and answers a signed PUT URL in the caller namespace', async () => {
    expect((await injectJson(t.app, 'POST', '/api/objects/upload')).statusCode).toBe(401);
    const answer = await target();
    expect(answer.method).toBe('PUT');
    expect(answer.fields).toEqual({});
    expect(answer.objectPath).toMatch(new RegExp(`^/objects/uploads/${user.id}/[0-9a-f-]{36}$`));
    expect(answer.uploadURL).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}\?exp=\d+&sig=[\w-]+$/);
  });
});

describe('uploading through the signed URL', () => {
  it('stores an image, answers what it is, and reads back the same bytes with ranges to its owner only', async () => {
    const { uploadURL, objectPath } = await target();
    const response = await put(uploadURL, PNG, 'application/octet-stream');
    expect(response.statusCode).toBe(200);
    // The cat shows no person: a video made from it needs no consent.
    expect(response.json()).toEqual({
      objectPath,
      kind: 'image',
      contentType: 'image/png',
      size: PNG.length,
      showsPeople: false,
    });

    const readUrl = `/api${objectPath}`;
    const whole = await t.app.inject({ method: 'GET', url: readUrl, headers: { cookie } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    // The owner's view (the generator's preview): cached by their browser only, never sniffed as another type.
    expect(whole.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect((await t.app.inject({ method: 'GET', url: readUrl })).statusCode).toBe(401);
    expect(whole.rawPayload.equals(PNG)).toBe(true);

    const part = await t.app.inject({ method: 'GET', url: readUrl, headers: { cookie, range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${PNG.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(PNG.subarray(100, 1100))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url: readUrl, headers: { cookie, range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(PNG.subarray(PNG.length - 10))).toBe(true);
    const outside = await t.app.inject({
      method: 'GET',
      url: readUrl,
      headers: { cookie, range: `bytes=${PNG.length}-` },
    });
    expect(outside.statusCode).toBe(416);

    const other = await signIn(t.app, await createUser(t.db));
    expect((await t.app.inject({ method: 'GET', url: readUrl, headers: { cookie: other } })).statusCode).toBe(404);
  });

  it('accepts a form POST with the file last', async () => {
    const { uploadURL, objectPath } = await target();
    const form = new FormData();
    form.append('objectPath', objectPath);
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'cat.png');
    const request = new Request('http://x', { method: 'POST', body: form });
    const response = await t.app.inject({
      method: 'POST',
      url: uploadURL,
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().size).toBe(PNG.length);
  });

  it('refuses a reused link with 403', async () => {
    const { uploadURL } = await target();
    expect((await put(uploadURL, PNG)).statusCode).toBe(200);
    const again = await put(uploadURL, PNG);
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('upload_link_used');
  });

  it('refuses a tampered or expired link with 403', async () => {
    const { uploadURL } = await target();
    const last = uploadURL.slice(-1);
    const tampered = `${uploadURL.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    const forged = await put(tampered, PNG);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('upload_link_invalid');
    const otherId = uploadURL.replace(/uploads\/[0-9a-f]/, (m) => m.slice(0, -1) + (m.endsWith('0') ? '1' : '0'));
    expect((await put(otherId, PNG)).statusCode).toBe(403);

    const late = await target();
    clock = new Date(clock.getTime() + 16 * 60 * 1000);
    try {
      const expired = await put(late.uploadURL, PNG);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().code).toBe('upload_link_expired');
    } finally {
      clock = new Date(clock.getTime() - 16 * 60 * 1000);
    }
  });

  it('refuses a text file named .png and sent as image/png with 415, keeping nothing', async () => {
    const { uploadURL, objectPath } = await target();
    const response = await put(uploadURL, Buffer.from('this is not a picture at all '.repeat(300)), 'image/png');
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_file_type');
    expect(await storage().stat(keyOf(objectPath))).toBeNull();
    const id = objectPath.split('/').pop() ?? '';
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toHaveLength(0);
  });

  it('refuses 50 MiB + 1 byte with 413 while streaming, keeping nothing', async () => {
    const { uploadURL, objectPath } = await target();
    const chunk = Buffer.alloc(1024 * 1024, 7);
    PNG.copy(chunk); // a real image header, so only the size is wrong
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= MAX_UPLOAD_BYTES + 1) return this.push(null);
        const size = Math.min(chunk.length, MAX_UPLOAD_BYTES + 1 - sent);
        this.push(sent === 0 ? chunk.subarray(0, size) : Buffer.alloc(size, 1));
        sent += size;
      },
    });
    const response = await put(uploadURL, body);
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('file_too_large');
    expect(await storage().stat(keyOf(objectPath))).toBeNull();

    const declared = await target();
    const big = await t.app.inject({
      method: 'PUT',
      url: declared.uploadURL,
      headers: { 'content-type': 'image/png', 'content-length': String(MAX_UPLOAD_BYTES + 1) },
      payload: Buffer.alloc(10),
    });
    expect(big.statusCode).toBe(413);
  });
});

describe('media links', () => {
  it('serves a capability URL to anyone until it expires, with ranges, and refuses a forged one', async () => {
    const { uploadURL, objectPath } = await target();
    await put(uploadURL, PNG);
    const expiresAt = new Date(clock.getTime() + 60 * 60 * 1000);
    const url = mediaUrl(t.config.sessionSecret, { key: keyOf(objectPath), contentType: 'image/png', expiresAt });
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-type']).toBe('image/png');
    expect(part.rawPayload.equals(PNG.subarray(0, 100))).toBe(true);
    const forged = url.replace('type=image%2Fpng', 'type=text%2Fhtml');
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    const otherKey = url.replace(/media\/[^?]+/, `media/${Buffer.from('uploads/x/y').toString('base64url')}`);
    expect((await t.app.inject({ method: 'GET', url: otherKey })).statusCode).toBe(403);
    clock = new Date(expiresAt.getTime() + 1000);
    try {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      clock = new Date(clock.getTime() - 60 * 60 * 1000 - 1000);
    }
  });
});

describe('naming an upload later', () => {
  it('resolves its objectPath or its upload URL without the query, for its owner only', async () => {
    const { uploadURL, objectPath } = await target();
    await put(uploadURL, PNG);
    const byPath = await resolveUploadRef(deps(), user.id, objectPath);
    expect(byPath).toMatchObject({ kind: 'image', contentType: 'image/png', sizeBytes: PNG.length });
    const byUrl = await resolveUploadRef(deps(), user.id, `http://localhost:3000${uploadURL.split('?')[0]}`);
    expect(byUrl.id).toBe(byPath.id);

    const stranger = await createUser(t.db);
    await expect(resolveUploadRef(deps(), stranger.id, objectPath)).rejects.toMatchObject({ status: 400 });
    await expect(resolveUploadRef(deps(), stranger.id, uploadURL.split('?')[0] ?? '')).rejects.toMatchObject({
      status: 400,
    });
    const unfinished = await target();
    await expect(resolveUploadRef(deps(), user.id, unfinished.objectPath)).rejects.toMatchObject({ status: 400 });
    await expect(resolveUploadRef(deps(), user.id, '/etc/passwd')).rejects.toMatchObject({ status: 400 });
  });
});

describe('24-hour retention', () => {
  it('sweeps what is older than 24 hours and nothing younger', async () => {
    const owner = await createUser(t.db);
    const ownerCookie = await signIn(t.app, owner);
    const old = await target(ownerCookie);
    await put(old.uploadURL, PNG);
    clock = new Date(clock.getTime() + 60 * 60 * 1000);
    const young = await target(ownerCookie);
    await put(young.uploadURL, PNG);

    clock = new Date(clock.getTime() + 23 * 60 * 60 * 1000 + 60 * 1000); // old: 24h01m, young: 23h01m
    const swept = await injectJson(t.app, 'POST', '/api/files/cleanup', { cookie: ownerCookie });
    expect(swept.statusCode).toBe(200);
    expect(swept.json()).toEqual({ deleted: 1 });
    expect(await storage().stat(keyOf(old.objectPath))).toBeNull();
    expect(await storage().stat(keyOf(young.objectPath))).not.toBeNull();
    expect((await injectJson(t.app, 'POST', '/api/files/cleanup', { cookie: ownerCookie })).json()).toEqual({
      deleted: 0,
    });
  });

  it("removes a deleted user's files from storage", async () => {
    const admin = await createUser(t.db, { isAdmin: true });
    const member = await createUser(t.db);
    const memberCookie = await signIn(t.app, member);
    const upload = await target(memberCookie);
    await put(upload.uploadURL, PNG);
    expect(await storage().stat(keyOf(upload.objectPath))).not.toBeNull();
    const deleted = await injectJson(t.app, 'DELETE', `/api/admin/users/${member.id}`, {
      cookie: await signIn(t.app, admin),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await storage().stat(keyOf(upload.objectPath))).toBeNull();
  });
});
