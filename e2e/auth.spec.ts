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

  it('says a wrong password once, beside the password, on a phone', async () => {
    const email = uniqueEmail('wrong');
    const { page, context } = await openPage(browser.get(), baseUrl, { viewport: { width: 390, height: 844 } });
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
    const sentence = page.getByText(/^Invalid email or password\./);
    await sentence.waitFor();
    expect(await sentence.count()).toBe(1);
    expect(await page.getByText('Login Failed', { exact: true }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('says what is wrong with a too-short password, and a toast on a phone covers neither the header nor the heading and is gone on the next page', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 390, height: 844 },
    });
    await page.goto('/register');
    await page.getByLabel('Email').fill(uniqueEmail('short'));
    await page.getByLabel('Password').fill('abc');
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.getByText('Password must be at least 8 characters.', { exact: true }).waitFor();
    // The toast itself (Radix also announces its text in a hidden live region).
    const toast = page.getByRole('region', { name: /Notifications/ }).locator('li', { hasText: 'Missing Information' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(
      'Please fill in all required fields. Password must be at least 8 characters.',
    );
    const toastBox = await toast.boundingBox();
    const headingBox = await page.getByRole('heading', { name: 'Create your account' }).boundingBox();
    if (!toastBox || !headingBox) throw new Error('toast or heading not laid out');
    expect(toastBox.y).toBeGreaterThan(headingBox.y + headingBox.height);

    await page.getByLabel('First Name').fill('Pat');
    await page.getByLabel('Password').fill('long-enough-1');
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    expect(await page.getByText('Missing Information', { exact: true }).count()).toBe(0);
    assertNoPageErrors();
    await context.close();
  });

  it("shows 'Page Not Found' for an unknown route", async () => {
    const { page, context } = await openPage(browser.get(), baseUrl);
    const response = await page.goto('/no/such/page');
    // The server answers the address as what it is, so crawlers and monitors see it too.
    expect(response?.status()).toBe(404);
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
