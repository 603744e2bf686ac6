import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';

describe('caching of API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      app.get('/api/test/own-cache', async (_request, reply) =>
        reply.header('cache-control', 'private, max-age=60').send({ ok: true }),
      );
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks personal answers no-store, errors included', async () => {
    const cookie = await signIn(t.app, await createUser(t.db));
    for (const url of ['/api/auth/user', '/api/user/status', '/api/credits/balance', '/api/video-generation']) {
      const response = await injectJson(t.app, 'GET', url, { cookie });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const signedOut = await injectJson(t.app, 'GET', '/api/auth/user');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers['cache-control']).toBe('no-store');
    expect((await injectJson(t.app, 'GET', '/api/nothing-here')).headers['cache-control']).toBe('no-store');
  });

  it("keeps a route's own Cache-Control, and leaves pages outside /api alone", async () => {
    expect((await injectJson(t.app, 'GET', '/api/test/own-cache')).headers['cache-control']).toBe(
      'private, max-age=60',
    );
    expect((await injectJson(t.app, 'GET', '/healthz')).headers['cache-control']).toBeUndefined();
  });
});

/** A raw TCP connection to the server, collecting what it answers until it closes. */
function openSocket(port: number): Promise<{ socket: Socket; closed: Promise<{ afterMs: number; received: string }> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.once('error', reject);
    socket.once('connect', () => {
      const openedAt = Date.now();
      const closed = new Promise<{ afterMs: number; received: string }>((done) => {
        socket.once('close', () => done({ afterMs: Date.now() - openedAt, received }));
      });
      resolve({ socket, closed });
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('slow and idle clients on a listening server', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_SECONDS: '0.5',
      HTTP_IDLE_TIMEOUT_SECONDS: '6',
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('closes a connection that sends part of a header line and then nothing, within the header timeout', async () => {
    const { socket, closed } = await openSocket(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: a');
    const { afterMs, received } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(400);
    expect(afterMs).toBeLessThan(1500);
  });

  it('closes a connection that trickles header lines forever', async () => {
    const { socket, closed } = await openSocket(port);
    socket.write('GET /healthz HTTP/1.1\r\n');
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('X-More: a\r\n');
    }, 100);
    const { afterMs } = await closed.finally(() => clearInterval(trickle));
    expect(afterMs).toBeLessThan(1500);
  });

  it('closes an idle keep-alive connection after its timeout', async () => {
    const { socket, closed } = await openSocket(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const { afterMs, received } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('Keep-Alive: timeout=1');
    // Node keeps the socket a further second (keepAliveTimeoutBuffer) against races with clients.
    expect(afterMs).toBeGreaterThanOrEqual(900);
    expect(afterMs).toBeLessThan(4000);
  });

  it('lets a body arrive slowly past the header timeout when the headers came in time', async () => {
    const { socket, closed } = await openSocket(port);
    const body = JSON.stringify({ email: 'slow-body@example.com', password: 'wrong-password' });
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    for (const part of body.match(/.{1,8}/g) ?? []) {
      await sleep(150);
      socket.write(part);
    }
    const { afterMs, received } = await closed;
    expect(afterMs).toBeGreaterThan(1000);
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });
});
