import { solveChallenge } from 'altcha-lib/v1';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { buildApp } from '../../app';
import { createServiceContext } from '../../context';
import { uniqueEmail } from '../../../../tests/support/factories';
import { users } from '../../db/schema';

const account = () => ({ email: uniqueEmail(), password: 'longenough', firstName: 'Ada' });

/** Fetches a challenge and solves it with altcha-lib's own solver, as the ALTCHA widget would. */
async function solvedChallenge(t: TestApp): Promise<string> {
  const response = await injectJson(t.app, 'GET', '/api/auth/challenge');
  expect(response.statusCode).toBe(200);
  const challenge = response.json<{
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  }>();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  if (!solution) throw new Error('altcha-lib found no solution');
  const payload = { ...challenge, number: solution.number };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

async function accountExists(t: TestApp, email: string): Promise<boolean> {
  return (await t.db.select().from(users).where(eq(users.email, email))).length > 0;
}

describe('registration with the proof-of-work challenge on', () => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await createTestApp({ REGISTRATION_CHALLENGE: 'altcha', REGISTRATION_CHALLENGE_COST: '5000' }, undefined, {
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells the client, and answers a fresh challenge each time', async () => {
    const options = await injectJson(t.app, 'GET', '/api/auth/providers');
    expect(options.json()).toMatchObject({ registrationChallenge: true });
    const a = await injectJson(t.app, 'GET', '/api/auth/challenge');
    const b = await injectJson(t.app, 'GET', '/api/auth/challenge');
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.json()).toMatchObject({ algorithm: 'SHA-256', maxnumber: 5000 });
    expect(a.json<{ salt: string }>().salt).not.toBe(b.json<{ salt: string }>().salt);
  });

  it('refuses a registration without a solution and writes nothing', async () => {
    const body = account();
    const response = await injectJson(t.app, 'POST', '/api/auth/register', { body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'challenge_required' });
    expect(await accountExists(t, body.email)).toBe(false);
  });

  it('registers with a solved challenge, and refuses the same solution a second time', async () => {
    const challengeSolution = await solvedChallenge(t);
    const first = account();
    const ok = await injectJson(t.app, 'POST', '/api/auth/register', { body: { ...first, challengeSolution } });
    expect(ok.statusCode).toBe(201);
    expect(await accountExists(t, first.email)).toBe(true);

    const second = account();
    const replay = await injectJson(t.app, 'POST', '/api/auth/register', { body: { ...second, challengeSolution } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'challenge_used' });
    expect(await accountExists(t, second.email)).toBe(false);
  });

  it('refuses a solution already used by another server process on the same database', async () => {
    // A second instance of the server on the same database, as a second web process would be.
    const other = await buildApp(createServiceContext(t.config, t.testDb.database, { now: () => new Date(clock) }));
    try {
      await other.ready();
      const challengeSolution = await solvedChallenge(t);
      const [first, second] = [account(), account()];
      const answers = await Promise.all([
        injectJson(t.app, 'POST', '/api/auth/register', { body: { ...first, challengeSolution } }),
        injectJson(other, 'POST', '/api/auth/register', { body: { ...second, challengeSolution } }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400]);
      expect(answers.find((a) => a.statusCode === 400)?.json()).toMatchObject({ code: 'challenge_used' });
      expect([await accountExists(t, first.email), await accountExists(t, second.email)].sort()).toEqual([false, true]);
    } finally {
      await other.close();
    }
  });

  it('refuses a wrong number and a forged signature', async () => {
    const solved = JSON.parse(Buffer.from(await solvedChallenge(t), 'base64').toString()) as Record<string, unknown>;
    for (const forged of [
      { ...solved, number: (solved.number as number) + 1 },
      { ...solved, signature: '0'.repeat(64) },
    ]) {
      const body = account();
      const challengeSolution = Buffer.from(JSON.stringify(forged)).toString('base64');
      const response = await injectJson(t.app, 'POST', '/api/auth/register', { body: { ...body, challengeSolution } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'challenge_invalid' });
      expect(await accountExists(t, body.email)).toBe(false);
    }
    const garbage = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { ...account(), challengeSolution: 'not base64 json' },
    });
    expect(garbage.json()).toMatchObject({ code: 'challenge_invalid' });
  });

  it('refuses a solution whose challenge has expired', async () => {
    const challengeSolution = await solvedChallenge(t);
    clock += 6 * 60 * 1000;
    const body = account();
    const response = await injectJson(t.app, 'POST', '/api/auth/register', { body: { ...body, challengeSolution } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'challenge_expired' });
    expect(await accountExists(t, body.email)).toBe(false);
  });
});

describe('registration with the challenge off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers as before, says so to the client, and offers no challenge', async () => {
    const response = await injectJson(t.app, 'POST', '/api/auth/register', { body: account() });
    expect(response.statusCode).toBe(201);
    expect((await injectJson(t.app, 'GET', '/api/auth/providers')).json()).toMatchObject({
      registrationChallenge: false,
    });
    expect((await injectJson(t.app, 'GET', '/api/auth/challenge')).statusCode).toBe(404);
  });
});
