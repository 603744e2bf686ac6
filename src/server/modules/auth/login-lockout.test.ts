import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { readEnv } from '../../config';
import { createServiceContext } from '../../context';
import { openDatabase } from '../../db/client';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, uniqueEmail } from '../../../../tests/support/factories';
import { loginFailures } from '../../db/schema';
import { ACCOUNT_SLOWDOWN_AFTER, accountSlowdownMs, ADDRESS_FAILURE_LIMIT, PAIR_FAILURE_LIMIT } from './auth.service';

let t: TestApp;
beforeAll(async () => {
  // Hundreds of sign-ins at once are the point here, not load shedding: no request is turned away for load.
  t = await createTestApp({ DB_MAX_QUEUED_QUERIES: '100000' });
});
afterAll(async () => {
  await t.close();
});

/** Signs in with exactly the two fields the route takes (a whole user row would be refused as unknown fields). */
const tryLogin = ({ email, password }: { email: string; password: string }, remoteAddress: string) =>
  injectJson(t.app, 'POST', '/api/auth/login', { body: { email, password }, remoteAddress });

/** How many answers had each status: a 401 means a password was checked, a 429 that none was. */
function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('sign-in lockout per account and address', () => {
  it(`says how many tries are left, and pauses the pair after ${PAIR_FAILURE_LIMIT} failures`, async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.10';
    const messages: string[] = [];
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) {
      const response = await tryLogin({ email: user.email, password: `typo-${i}` }, ip);
      expect(response.statusCode).toBe(401);
      messages.push(response.json<{ message: string }>().message);
    }
    expect(messages[0]).toBe(
      `Invalid email or password. ${PAIR_FAILURE_LIMIT - 1} tries left before sign-in to this account from your network is paused for 15 minutes.`,
    );
    expect(messages[PAIR_FAILURE_LIMIT - 2]).toContain('1 try left');
    expect(messages[PAIR_FAILURE_LIMIT - 1]).toBe(
      'Invalid email or password. Sign-in to this account from your network is now paused for 15 minutes.',
    );
    const paused = await tryLogin(user, ip);
    expect(paused.statusCode).toBe(429);
    expect(paused.json().code).toBe('too_many_login_attempts');
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(800);
    // The same address still reaches other accounts, and the owner signs in from another network.
    const colleague = await createUser(t.db);
    expect((await tryLogin(colleague, ip)).statusCode).toBe(200);
    expect((await tryLogin(user, '198.51.100.11')).statusCode).toBe(200);
  });

  it(`checks at most ${PAIR_FAILURE_LIMIT} passwords when 60 wrong guesses for one account from one address arrive at once`, async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.20';
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => tryLogin({ email: user.email, password: `burst-${i}` }, ip)),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({
      401: PAIR_FAILURE_LIMIT,
      429: 60 - PAIR_FAILURE_LIMIT,
    });
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.email, user.email))).toHaveLength(
      PAIR_FAILURE_LIMIT,
    );
  });

  it(`pauses an address only after ${ADDRESS_FAILURE_LIMIT} failures across accounts (one office, many typos)`, async () => {
    const ip = '198.51.100.30';
    const responses = await Promise.all(
      Array.from({ length: ADDRESS_FAILURE_LIMIT + 20 }, (_, i) =>
        tryLogin({ email: uniqueEmail(`office${i}`), password: 'typo-typo' }, ip),
      ),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 401: ADDRESS_FAILURE_LIMIT, 429: 20 });
  });

  it('slows an account attacked from many addresses down, and still lets its owner in from a clean address', async () => {
    const user = await createUser(t.db);
    const attackers = ACCOUNT_SLOWDOWN_AFTER + 10;
    const responses = await Promise.all(
      Array.from({ length: attackers }, (_, i) =>
        tryLogin({ email: user.email, password: `guess-${i}` }, `10.77.0.${i + 1}`),
      ),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 401: attackers });
    const expectedDelay = accountSlowdownMs(attackers);
    expect(expectedDelay).toBeGreaterThan(0);
    const started = Date.now();
    const owner = await tryLogin(user, '192.0.2.50');
    expect(owner.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(expectedDelay - 20);
  });

  it('grows the delay with the failures and caps it', () => {
    expect(accountSlowdownMs(ACCOUNT_SLOWDOWN_AFTER - 1)).toBe(0);
    const delays = [10, 15, 20, 25, 30, 35, 40, 1000].map(accountSlowdownMs);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('does not count a successful sign-in, and a success clears that address\u2019s failures on the account', async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.40';
    expect((await tryLogin({ email: user.email, password: 'typo-typo' }, ip)).statusCode).toBe(401);
    for (let i = 0; i < PAIR_FAILURE_LIMIT + 2; i += 1) expect((await tryLogin(user, ip)).statusCode).toBe(200);
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(0);
  });

  it(`lets 12 concurrent correct sign-ins all in, while ${PAIR_FAILURE_LIMIT + 1} wrong ones from the same address still pause the pair after ${PAIR_FAILURE_LIMIT}`, async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.50';
    const correct = await Promise.all(Array.from({ length: 12 }, () => tryLogin(user, ip)));
    expect(countStatuses(correct.map((r) => r.statusCode))).toEqual({ 200: 12 });
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(0);
    const wrong = await Promise.all(
      Array.from({ length: PAIR_FAILURE_LIMIT + 1 }, (_, i) =>
        tryLogin({ email: user.email, password: `wrong-${i}` }, ip),
      ),
    );
    expect(countStatuses(wrong.map((r) => r.statusCode))).toEqual({ 401: PAIR_FAILURE_LIMIT, 429: 1 });
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(PAIR_FAILURE_LIMIT);
    expect((await tryLogin(user, ip)).statusCode).toBe(429);
  });

  it.runIf(readEnv().TEST_DB === 'postgres')(
    'keeps those numbers exact when the sign-ins arrive at two processes sharing one PostgreSQL database',
    async () => {
      // A second instance of the server: its own pool on the same database, as `npm run serve` twice would have.
      const url = t.testDb.url;
      if (!url) throw new Error('the PostgreSQL leg has a database URL');
      const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
      const other = await buildApp(createServiceContext(t.config, database));
      try {
        await other.ready();
        const user = await createUser(t.db);
        const ip = '198.51.100.60';
        const apps = [t.app, other];
        const on = (i: number, { email, password }: { email: string; password: string }) =>
          injectJson(apps[i % 2] ?? t.app, 'POST', '/api/auth/login', { body: { email, password }, remoteAddress: ip });
        // One try left: a correct sign-in counted as a failure, even for a moment, would pause the other process's.
        await t.db
          .insert(loginFailures)
          .values(Array.from({ length: PAIR_FAILURE_LIMIT - 1 }, () => ({ email: user.email, ip })));
        const correct = await Promise.all(Array.from({ length: 12 }, (_, i) => on(i, user)));
        expect(countStatuses(correct.map((r) => r.statusCode))).toEqual({ 200: 12 });
        expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(0);
        const wrong = await Promise.all(
          Array.from({ length: 12 }, (_, i) => on(i, { email: user.email, password: `wrong-${i}` })),
        );
        expect(countStatuses(wrong.map((r) => r.statusCode))).toEqual({
          401: PAIR_FAILURE_LIMIT,
          429: 12 - PAIR_FAILURE_LIMIT,
        });
        expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(
          PAIR_FAILURE_LIMIT,
        );
      } finally {
        await other.close();
        await database.close();
      }
    },
  );

  it('says the real time left of a pause, in the failure that starts it and in the refusals after', async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.51';
    // Four failures ten minutes ago: the fifth pauses the pair until the first of them is 15 minutes old.
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    await t.db
      .insert(loginFailures)
      .values(
        Array.from({ length: PAIR_FAILURE_LIMIT - 1 }, () => ({ email: user.email, ip, createdAt: tenMinutesAgo })),
      );
    const fifth = await tryLogin({ email: user.email, password: 'wrong-again' }, ip);
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().message).toBe(
      'Invalid email or password. Sign-in to this account from your network is now paused for 5 minutes.',
    );
    const paused = await tryLogin(user, ip);
    expect(paused.statusCode).toBe(429);
    const retryAfter = Number(paused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(4 * 60);
    expect(retryAfter).toBeLessThanOrEqual(5 * 60);
    expect(paused.json().message).toBe(
      'Too many failed sign-in attempts from your network. Please wait 5 minutes and try again, or reset your password.',
    );
  });
});
