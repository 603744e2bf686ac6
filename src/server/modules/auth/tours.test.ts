import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';

// Issue 45: onboarding tours are remembered for the account, not only in one browser.
describe('PUT /api/account/tours/:tour', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    const registered = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: 'tours@example.com', password: 'tour-password-1', firstName: 'Tess' },
      headers: { origin: 'http://localhost:3000' },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toMatchObject({ completedTours: [] });
    cookie = sessionCookieFrom(registered);
  });
  afterAll(async () => {
    await t.close();
  });

  const put = (tour: string, withCookie = true) =>
    injectJson(t.app, 'PUT', `/api/account/tours/${tour}`, {
      ...(withCookie ? { cookie } : {}),
      headers: { origin: 'http://localhost:3000' },
    });

  it('remembers a tour once, however often and however concurrently it is marked, and says so at sign-in', async () => {
    const first = await put('first-time');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ completedTours: ['first-time'] });
    // Two devices finishing the same tour at once, and the other tour: each name once.
    const answers = await Promise.all([put('generator'), put('generator'), put('first-time')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const user = await injectJson(t.app, 'GET', '/api/auth/user', { cookie });
    expect([...user.json().completedTours].sort()).toEqual(['first-time', 'generator']);
  });

  it('refuses a tour that does not exist, and anyone signed out, changing nothing', async () => {
    const before = (await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).json().completedTours;
    const unknown = await put('everything');
    expect(unknown.statusCode).toBe(400);
    expect((await put('first-time', false)).statusCode).toBe(401);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).json().completedTours).toEqual(before);
  });
});
