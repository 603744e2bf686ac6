import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startBuiltServer } from './support/app-server';
import { openPage, useBrowser } from './support/browser';

const browser = useBrowser();
let app: RunningServer | undefined;

beforeAll(async () => {
  app = await startBuiltServer({ REGISTRATION_CHALLENGE: 'altcha' });
});

afterAll(async () => {
  await app?.stop();
});

describe('registration with the proof-of-work challenge on', () => {
  it('checks this browser, then registers through the real form and lands on /dashboard', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), app?.baseUrl ?? '');
    const registerBodies: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/auth/register')) {
        registerBodies.push(request.postData() ?? '');
      }
    });
    const started = Date.now();
    await page.goto('/register');
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Email').fill(`pow-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('analytical-engine');
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    // The time to a registration with the default cost, for the figure docs/operating.md quotes.
    console.info(`registered through the challenge in ${Date.now() - started} ms`);

    expect(registerBodies).toHaveLength(1);
    const body = JSON.parse(registerBodies[0] ?? '{}') as { challengeSolution?: string };
    expect(body.challengeSolution).toBeTruthy();
    assertNoPageErrors();
    await context.close();
  });
});
