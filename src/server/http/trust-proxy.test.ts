import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, uniqueEmail } from '../../../tests/support/factories';
import { ConfigError, loadConfig } from '../config';
import { sessions } from '../db/schema';
import { PAIR_FAILURE_LIMIT } from '../modules/auth/auth.service';

const PROXY = '10.0.0.5';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: `127.0.0.1,${PROXY}/32` });
});
afterAll(async () => {
  await t.close();
});

/** Signs in with exactly the two fields the route takes (a whole user row would be refused as unknown fields). */
const login = (
  { email, password }: { email: string; password: string },
  remoteAddress: string,
  forwardedFor?: string,
) =>
  injectJson(t.app, 'POST', '/api/auth/login', {
    body: { email, password },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

/** The client address the server recorded for a user's session (request.ip at sign-in). */
async function sessionIp(userId: string): Promise<string | null | undefined> {
  const [row] = await t.db.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.userId, userId));
  return row?.ip;
}

describe('X-Forwarded-For from an address that is not a trusted proxy', () => {
  it('changes nothing: the client address stays the socket address', async () => {
    const user = await createUser(t.db);
    const response = await login(user, '203.0.113.40', '198.51.100.1');
    expect(response.statusCode).toBe(200);
    expect(await sessionIp(user.id)).toBe('203.0.113.40');
  });

  it('cannot escape the per-address lockout by forging a new address each time', async () => {
    const attacker = '203.0.113.41';
    const email = uniqueEmail('forge');
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) {
      const response = await login({ email, password: 'guess-guess' }, attacker, `198.51.100.${i + 1}`);
      expect(response.statusCode).toBe(401);
    }
    const forged = await login({ email, password: 'guess-guess' }, attacker, '198.51.100.250');
    expect(forged.statusCode).toBe(429);
  });
});

describe('X-Forwarded-For from a trusted proxy', () => {
  it("takes the client address from the proxy's header", async () => {
    const user = await createUser(t.db);
    expect((await login(user, PROXY, '198.51.100.60')).statusCode).toBe(200);
    expect(await sessionIp(user.id)).toBe('198.51.100.60');
  });

  it('takes the address the proxy saw, not what the client put before it', async () => {
    const user = await createUser(t.db);
    expect((await login(user, '127.0.0.1', '6.6.6.6, 198.51.100.61')).statusCode).toBe(200);
    expect(await sessionIp(user.id)).toBe('198.51.100.61');
  });

  it('locks out one forwarded client without locking out the others behind the same proxy', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) {
      const response = await login({ email: user.email, password: 'guess-guess' }, PROXY, '198.51.100.70');
      expect(response.statusCode).toBe(401);
    }
    expect((await login(user, PROXY, '198.51.100.70')).statusCode).toBe(429);
    expect((await login(user, PROXY, '198.51.100.71')).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  const dirs: string[] = [];
  const config = (value: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-proxy-'));
    dirs.push(dir);
    return loadConfig({ DATA_DIR: dir, TRUST_PROXY: value });
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('trusts no proxy when empty, false or 0', () => {
    for (const value of ['', 'false', '0', '  ']) expect(config(value).trustProxy).toBe(false);
  });

  it('takes addresses, CIDR ranges and presets', () => {
    expect(config(' 127.0.0.1, 10.0.0.0/8 ,::1, fd00::/8,loopback,uniquelocal').trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses "true" and hop counts, saying what to write instead', () => {
    for (const value of ['true', '1', '2']) {
      expect(() => config(value)).toThrow(ConfigError);
      expect(() => config(value)).toThrow(
        /TRUST_PROXY: .*list your reverse proxy's addresses.*TRUST_PROXY=127\.0\.0\.1/,
      );
    }
  });

  it('names the entries that are not addresses or ranges', () => {
    expect(() => config('127.0.0.1,proxy.local,10.0.0.0/33')).toThrow(/proxy\.local, 10\.0\.0\.0\/33/);
  });
});
