import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { uniqueEmail } from '../../../../tests/support/factories';
import { loginFailures } from '../../db/schema';
import { REGISTRATIONS_KEY } from './auth.repository';

const PER_HOUR = 10;
const PER_DAY = 30;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  expect(t.ctx.config.registrationsPerAddress).toEqual({ hour: PER_HOUR, day: PER_DAY });
});
afterAll(async () => {
  await t.close();
});

const register = (remoteAddress: string, email = uniqueEmail('burst')) =>
  injectJson(t.app, 'POST', '/api/auth/register', {
    body: { email, password: 'longenough', firstName: 'Burst' },
    remoteAddress,
  });

describe('registrations per address', () => {
  it(`refuses a burst from one address past ${PER_HOUR} an hour with Retry-After, while another address registers`, async () => {
    const ip = '198.51.100.70';
    const responses = await Promise.all(Array.from({ length: PER_HOUR + 5 }, () => register(ip)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = responses.find((r) => r.statusCode === 429);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(59 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(refused?.json()).toMatchObject({
      code: 'too_many_registrations',
      message: 'Too many accounts have been created from your network recently. Please try again in 60 minutes.',
    });
    expect((await register('198.51.100.71')).statusCode).toBe(201);
  });

  it('does not count a registration that fails (an email already taken)', async () => {
    const ip = '198.51.100.72';
    const email = uniqueEmail('taken');
    expect((await register(ip, email)).statusCode).toBe(201);
    for (let i = 0; i < PER_HOUR; i += 1) expect((await register(ip, email)).statusCode).toBe(409);
    for (let i = 1; i < PER_HOUR; i += 1) expect((await register(ip)).statusCode).toBe(201);
    expect((await register(ip)).statusCode).toBe(429);
  });

  it(`refuses past ${PER_DAY} a day, saying the hours left`, async () => {
    const ip = '198.51.100.73';
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.db
      .insert(loginFailures)
      .values(Array.from({ length: PER_DAY }, () => ({ email: REGISTRATIONS_KEY, ip, createdAt: twoHoursAgo })));
    const refused = await register(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(21 * 60 * 60);
    expect(refused.json().message).toBe(
      'Too many accounts have been created from your network recently. Please try again in 22 hours.',
    );
  });

  it('never counts registrations as failed sign-ins of the address', async () => {
    const ip = '198.51.100.74';
    const aMinuteAgo = new Date(Date.now() - 60 * 1000);
    await t.db
      .insert(loginFailures)
      .values(Array.from({ length: 150 }, () => ({ email: REGISTRATIONS_KEY, ip, createdAt: aMinuteAgo })));
    const login = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email: uniqueEmail('nobody'), password: 'whatever-it-is' },
      remoteAddress: ip,
    });
    expect(login.statusCode).toBe(401);
  });
});
