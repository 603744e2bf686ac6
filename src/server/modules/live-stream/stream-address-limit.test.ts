import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listenLocally, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { openSse, type SseStream } from '../../../../tests/support/sse-client';
import { MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_USER } from '../../../shared/live-events';

describe('live streams per client address', () => {
  let t: TestApp;
  let base: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    // The test client is the trusted proxy, so X-Forwarded-For names each stream's address.
    t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    base = await listenLocally(t);
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await t?.close();
  });

  async function stream(cookie: string, ip: string) {
    const opened = await openSse(base, cookie, undefined, { 'x-forwarded-for': ip });
    open.push(opened);
    return opened;
  }

  it(`refuses more than ${MAX_STREAMS_PER_ADDRESS} streams from one address, across its users, while another address is served`, async () => {
    const crowded = '198.51.100.60';
    const users = Math.ceil(MAX_STREAMS_PER_ADDRESS / MAX_STREAMS_PER_USER) + 1;
    const cookies = await Promise.all(Array.from({ length: users }, async () => signIn(t.app, await createUser(t.db))));
    for (let i = 0; i < MAX_STREAMS_PER_ADDRESS; i += 1) {
      const cookie = cookies[Math.floor(i / MAX_STREAMS_PER_USER)] ?? '';
      expect((await stream(cookie, crowded)).status).toBe(200);
    }
    // A user with no stream yet is still refused from the crowded address, the same way the per-user cap refuses.
    const fresh = cookies[users - 1] ?? '';
    const refused = await stream(fresh, crowded);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // The same user from another address is served, and a closed stream frees its place.
    expect((await stream(fresh, '198.51.100.61')).status).toBe(200);
    const first = open[0];
    first?.close();
    await first?.ended;
    await expect.poll(async () => (await stream(fresh, crowded)).status).toBe(200);
  });
});
