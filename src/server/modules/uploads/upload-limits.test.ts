import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { uploads } from '../../db/schema';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/chelsea.png'));

let t: TestApp;
let clock = new Date();
beforeAll(async () => {
  t = await createTestApp({}, undefined, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

async function newCookie() {
  return signIn(t.app, await createUser(t.db));
}
const reserve = (cookie: string) => injectJson(t.app, 'POST', '/api/objects/upload', { cookie });
async function link(cookie: string) {
  const response = await reserve(cookie);
  expect(response.statusCode).toBe(200);
  return response.json<{ uploadURL: string; objectPath: string }>();
}
const idOf = (objectPath: string) => objectPath.split('/').pop() ?? '';
const put = (url: string, payload: Buffer | PassThrough) =>
  t.app.inject({ method: 'PUT', url, payload, headers: { 'content-type': 'application/octet-stream' } });

describe('upload reservations', () => {
  it('lets one user hold at most 20 unused links, then answers 429 with when the oldest expires', async () => {
    const cookie = await newCookie();
    const links = [];
    for (let i = 0; i < 20; i += 1) links.push(await link(cookie));
    const over = await reserve(cookie);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'too_many_pending_uploads',
      message: expect.stringMatching(/^You have 20 uploads waiting/),
    });
    expect(Number(over.headers['retry-after'])).toBe(900);
    expect((await reserve(await newCookie())).statusCode).toBe(200);

    // Sending a file frees its place; so does a link expiring (15 minutes).
    expect((await put(links[0]?.uploadURL ?? '', PNG)).statusCode).toBe(200);
    expect((await reserve(cookie)).statusCode).toBe(200);
    expect((await reserve(cookie)).statusCode).toBe(429);
    clock = new Date(clock.getTime() + 15 * 60_000 + 1000);
    expect((await reserve(cookie)).statusCode).toBe(200);
  });

  it('keeps to the cap when the requests arrive all at once', async () => {
    const cookie = await newCookie();
    const answers = await Promise.all(Array.from({ length: 26 }, () => reserve(cookie)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(6);
  });
});

describe('uploads in progress', () => {
  it('lets one user send at most 3 files at once; a 4th is refused with 429 and its link still works later', async () => {
    const cookie = await newCookie();
    const links = [await link(cookie), await link(cookie), await link(cookie), await link(cookie)];
    const bodies = [new PassThrough(), new PassThrough(), new PassThrough()];
    const sending = bodies.map((body, i) => {
      body.write(PNG.subarray(0, 8192));
      return put(links[i]?.uploadURL ?? '', body);
    });
    const ids = links.slice(0, 3).map((l) => idOf(l.objectPath));
    for (let waited = 0; ; waited += 20) {
      const receiving = await t.db
        .select()
        .from(uploads)
        .where(and(inArray(uploads.id, ids), eq(uploads.status, 'receiving')));
      if (receiving.length === 3) break;
      if (waited > 5000) throw new Error('the three uploads never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const fourth = await put(links[3]?.uploadURL ?? '', PNG);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({
      code: 'too_many_uploads',
      message: expect.stringMatching(/already sending 3 files/),
    });
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else is not held up.
    const other = await newCookie();
    expect((await put((await link(other)).uploadURL, PNG)).statusCode).toBe(200);

    bodies[0]?.end(PNG.subarray(8192));
    expect((await sending[0])?.statusCode).toBe(200);
    expect((await put(links[3]?.uploadURL ?? '', PNG)).statusCode).toBe(200);
    for (const body of bodies.slice(1)) body.end(PNG.subarray(8192));
    expect((await Promise.all(sending)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
  });
});

describe('slow uploads over a real connection', () => {
  it('cuts off with 408 an upload that trickles in, raw or as a form, and keeps nothing; a normal one goes through', async () => {
    const cookie = await newCookie();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    const normal = await link(cookie);
    const body = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024, 7)]);
    const sent = await fetch(`${base}${normal.uploadURL}`, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'image/png' },
    });
    expect(sent.status).toBe(200);

    const [raw, form] = [await link(cookie), await link(cookie)];
    const started = Date.now();
    const [rawAnswer, formAnswer] = await Promise.all([
      trickle(port, 'PUT', raw.uploadURL, 'application/octet-stream', PNG),
      trickle(
        port,
        'POST',
        form.uploadURL,
        'multipart/form-data; boundary=x',
        Buffer.from(`--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`),
      ),
    ]);
    const elapsed = Date.now() - started;
    for (const answer of [rawAnswer, formAnswer]) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('"code":"upload_too_slow"');
    }
    // One window of 10 s (the trickle sends one byte a second), plus a little.
    expect(elapsed).toBeGreaterThan(9000);
    expect(elapsed).toBeLessThan(16_000);
    // The raw upload's row and file are gone; the form never reached its file, so its link is unused.
    const left = await t.db
      .select()
      .from(uploads)
      .where(inArray(uploads.id, [idOf(raw.objectPath), idOf(form.objectPath)]));
    expect(left.map((row) => [row.id, row.status])).toEqual([[idOf(form.objectPath), 'pending']]);
    expect(await t.ctx.storage.stat(raw.objectPath.replace(/^\/objects\//, ''))).toBeNull();
  }, 30_000);
});

/** Sends the headers, then one byte a second; answers everything the server wrote until it closed the connection. */
function trickle(port: number, method: string, url: string, contentType: string, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < bytes.length) socket.write(bytes.subarray(sent, sent + 1));
      sent += 1;
    }, 1000);
    socket.on('connect', () => {
      socket.write(
        `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length + 1000}\r\n\r\n`,
      );
    });
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
  });
}
