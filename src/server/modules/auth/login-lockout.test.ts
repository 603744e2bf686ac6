import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, uniqueEmail } from '../../../../tests/support/factories';
import { loginFailures } from '../../db/schema';
import { LOGIN_FAILURE_LIMIT } from './auth.service';

let t: TestApp;
beforeAll(async () => {
  // 200 sign-ins at once are the point here, not load shedding: no request is turned away for load.
  t = await createTestApp({ DB_MAX_QUEUED_QUERIES: '100000' });
});
afterAll(async () => {
  await t.close();
});

const ATTACK = 200;

const tryLogin = (body: { email: string; password: string }, remoteAddress: string) =>
  injectJson(t.app, 'POST', '/api/auth/login', { body, remoteAddress });

/** How many answers had each status: a 401 means a password was checked, a 429 that none was. */
function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('sign-in lockout under concurrent guesses', () => {
  it(`checks at most ${LOGIN_FAILURE_LIMIT} passwords when ${ATTACK} wrong sign-ins from one address arrive at once`, async () => {
    const ip = '198.51.100.200';
    const responses = await Promise.all(
      Array.from({ length: ATTACK }, (_, i) => tryLogin({ email: uniqueEmail(`burst${i}`), password: 'guess-guess' }, ip)),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 401: LOGIN_FAILURE_LIMIT, 429: ATTACK - LOGIN_FAILURE_LIMIT });
    for (const locked of responses.filter((r) => r.statusCode === 429)) {
      expect(locked.json().code).toBe('too_many_login_attempts');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(LOGIN_FAILURE_LIMIT);
  });

  it(`checks at most ${LOGIN_FAILURE_LIMIT} passwords for one email guessed from ${ATTACK} addresses at once`, async () => {
    const user = await createUser(t.db);
    const responses = await Promise.all(
      Array.from({ length: ATTACK }, (_, i) =>
        tryLogin({ email: user.email, password: `wrong-${i}` }, `10.77.${Math.floor(i / 250)}.${(i % 250) + 1}`),
      ),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 401: LOGIN_FAILURE_LIMIT, 429: ATTACK - LOGIN_FAILURE_LIMIT });
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.email, user.email))).toHaveLength(LOGIN_FAILURE_LIMIT);
    // The right password is refused too while the email is locked.
    expect((await tryLogin(user, '10.78.0.1')).statusCode).toBe(429);
  });

  it('does not count a successful sign-in against the limit', async () => {
    const user = await createUser(t.db);
    const ip = '198.51.100.201';
    for (let i = 0; i < LOGIN_FAILURE_LIMIT + 5; i += 1) {
      expect((await tryLogin(user, ip)).statusCode).toBe(200);
    }
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.ip, ip))).toHaveLength(0);
  });

  it('still lets the right password in when concurrent wrong guesses stay under the limit', async () => {
    const user = await createUser(t.db);
    const wrong = Array.from({ length: LOGIN_FAILURE_LIMIT - 1 }, (_, i) =>
      tryLogin({ email: user.email, password: `nope-${i}` }, `192.0.2.${i + 10}`),
    );
    const right = tryLogin(user, '192.0.2.99');
    const [rightResponse, ...wrongResponses] = await Promise.all([right, ...wrong]);
    expect(wrongResponses.map((r) => r.statusCode)).toEqual(Array.from({ length: LOGIN_FAILURE_LIMIT - 1 }, () => 401));
    expect(rightResponse?.statusCode).toBe(200);
  });
});
