import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database';
import { registerErrorHandler } from './error-handler';
import { MAX_QUEUED_QUERIES, registerOverloadGuard } from './overload';

describe('load shedding', () => {
  it('turns API requests away with 503 and Retry-After while the database queue is full, never health checks', async () => {
    let queued = 0;
    const app = Fastify();
    registerErrorHandler(app);
    registerOverloadGuard(app, () => queued, 10);
    app.get('/api/video-generation', async () => ({ ok: true }));
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/api/media/:id', async () => 'bytes');

    expect((await app.inject('/api/video-generation')).statusCode).toBe(200);
    queued = 10;
    const refused = await app.inject('/api/video-generation');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({
      code: 'server_busy',
      message: 'The server is busy right now. Please try again in a moment.',
    });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    expect((await app.inject('/api/media/abc')).statusCode).toBe(200);
    queued = 9;
    expect((await app.inject('/api/video-generation')).statusCode).toBe(200);
    await app.close();
  });
});

describe('the database queue', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.drop();
  });

  it('lets the event loop serve other work between queries of a burst, and counts what waits', async () => {
    const { db } = t.database;
    let finished = 0;
    let finishedWhenTimerRan = -1;
    let mostQueued = 0;
    const burst = Array.from({ length: 200 }, () =>
      db.execute(sql`SELECT pg_catalog.md5(repeat('x', 2000))`).then(() => {
        finished += 1;
        mostQueued = Math.max(mostQueued, t.database.queued());
      }),
    );
    mostQueued = Math.max(mostQueued, t.database.queued());
    // A timer stands for a socket waiting to be read: it must not wait for the whole burst.
    setTimeout(() => (finishedWhenTimerRan = finished), 0);
    await Promise.all(burst);
    expect(finished).toBe(200);
    expect(finishedWhenTimerRan).toBeGreaterThanOrEqual(0);
    expect(finishedWhenTimerRan).toBeLessThan(100);
    if (t.database.kind === 'pglite') expect(mostQueued).toBeGreaterThan(MAX_QUEUED_QUERIES);
  });
});
