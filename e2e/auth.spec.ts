import { describe, expect, inject, it } from 'vitest';
import { openPage, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

describe('accounts in the browser', () => {
  it('registers, lands on /dashboard, stays signed in after a reload, and logs out to /', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await page.goto('/register');
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Email').fill(uniqueEmail('ada'));
    await page.getByLabel('Password').fill('analytical-engine');
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'GET STARTED' }).first().waitFor();
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(401);
    assertNoPageErrors();
    await context.close();
  });

  it("shows 'Login Failed' for a wrong password", async () => {
    const email = uniqueEmail('wrong');
    const { page, context } = await openPage(browser.get(), baseUrl);
    const created = await page.request.post('/api/auth/register', {
      data: { email, password: 'the-right-one', firstName: 'Wes' },
      headers: { origin: baseUrl },
    });
    expect(created.status()).toBe(201);
    await page.request.post('/api/auth/logout', { headers: { origin: baseUrl } });

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('the-wrong-one');
    await page.getByRole('button', { name: 'SIGN IN' }).click();
    await page.getByText('Login Failed', { exact: true }).waitFor();
    await page.getByText('Invalid email or password').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it("shows 'Page Not Found' for an unknown route", async () => {
    const { page, context } = await openPage(browser.get(), baseUrl);
    await page.goto('/no/such/page');
    await page.getByText('Page Not Found', { exact: true }).waitFor();
    await page.getByText("The page you're looking for doesn't exist or has been moved.").waitFor();
    await context.close();
  });

  it("shows 'Google Sign-In Failed' for ?error=google_auth_failed and drops the query", async () => {
    const { page, context } = await openPage(browser.get(), baseUrl);
    await page.goto('/login?error=google_auth_failed');
    await page.getByText('Google Sign-In Failed', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    await context.close();
  });

  it("shows 'Sign In Required' on /history when signed out", async () => {
    const { page, context } = await openPage(browser.get(), baseUrl);
    await page.goto('/history');
    await page.getByRole('heading', { name: 'Sign In Required' }).waitFor();
    await context.close();
  });
});
