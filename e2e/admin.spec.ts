import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL('**/dashboard');
}

async function registerUser(page: Page, email: string, firstName: string): Promise<void> {
  const response = await page.request.post('/api/auth/register', {
    data: { email, password: 'member-password', firstName },
    headers: { origin: baseUrl },
  });
  expect(response.status()).toBe(201);
}

describe('administration in the browser', () => {
  it("shows 'Access Denied' to a signed-in user who is not an administrator", async () => {
    const { page, context } = await openPage(browser.get(), baseUrl);
    await registerUser(page, `member-${Date.now()}@example.com`, 'Mia');
    await page.goto('/admin');
    await page.getByText('Access Denied', { exact: true }).waitFor();
    await page.getByText('You do not have administrator privileges to access this page').waitFor();
    await context.close();
  });

  it('sorts by Current Credits, edits credits inline, and deletes a user through the confirmation', async () => {
    const stamp = Date.now();
    const editEmail = `edit-${stamp}@example.com`;
    const deleteEmail = `delete-${stamp}@example.com`;
    const setup = await openPage(browser.get(), baseUrl);
    await registerUser(setup.page, editEmail, 'Eddie');
    await registerUser(setup.page, deleteEmail, 'Dora');
    await setup.context.close();

    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signInThroughForm(page, admin.email, admin.password);
    await page.goto('/generator');
    await page.getByRole('link', { name: 'Admin Dashboard' }).first().click();
    await page.waitForURL('**/admin');
    await page.getByText('User Management').first().waitFor();

    const creditsHeader = page.getByRole('columnheader', { name: 'Current Credits' });
    const sorted = page.waitForResponse(
      (r) => r.url().includes('sort=availableCredits') && r.url().includes('order=asc'),
    );
    await creditsHeader.getByRole('button').click();
    await sorted;
    await expect.poll(() => creditsHeader.getAttribute('aria-sort')).toBe('ascending');

    await page.getByRole('button', { name: `Edit ${editEmail}` }).click();
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Save ${editEmail}` }) });
    await row.getByLabel(/current credits/i).fill('25');
    await page.getByRole('button', { name: `Save ${editEmail}` }).click();
    await page.getByText('User Updated', { exact: true }).waitFor();
    const list = await page.request.get(`/api/admin/users?q=${encodeURIComponent(editEmail)}`);
    expect((await list.json())[0]).toMatchObject({ email: editEmail, availableCredits: 25 });

    await page.getByRole('button', { name: `Delete ${deleteEmail}` }).click();
    await page
      .getByText(
        `Are you sure you want to delete user ${deleteEmail}? This action cannot be undone and will permanently delete all their data.`,
      )
      .waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('User Deleted', { exact: true }).waitFor();
    const gone = await page.request.get(`/api/admin/users?q=${encodeURIComponent(deleteEmail)}`);
    expect(await gone.json()).toEqual([]);
    assertNoPageErrors();
    await context.close();
  });

  it('opens the jobs console and the cost view from the admin page, with a finished video in both', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signInThroughForm(page, admin.email, admin.password);
    const token = `console${Date.now().toString(36)}`;
    const made = await page.request.post('/api/video-generation', {
      headers: { origin: baseUrl },
      data: { prompt: `A lighthouse at dusk ${token}`, model: 'local', duration: 2 },
    });
    expect(made.status()).toBe(201);
    const id = ((await made.json()) as { id: string }).id;
    await expect
      .poll(
        async () => {
          const list = (await (await page.request.get('/api/video-generation')).json()) as {
            id: string;
            status: string;
          }[];
          return list.find((record) => record.id === id)?.status;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe('completed');

    await page.goto('/admin');
    await page.getByRole('link', { name: 'Jobs Console' }).first().click();
    await page.waitForURL('**/admin/jobs');
    await page.getByRole('heading', { name: 'Jobs Console' }).waitFor();
    await page.getByRole('region', { name: 'Queue' }).waitFor();
    await page.getByText(token).first().waitFor();
    await shoot(page, 'admin-jobs');

    await page.getByRole('link', { name: 'Costs' }).first().click();
    await page.waitForURL('**/admin/costs');
    await page.getByRole('heading', { name: 'Costs' }).waitFor();
    await page.getByText('By day and model').waitFor();
    await page.getByRole('cell', { name: 'Local preview engine' }).first().waitFor();
    await shoot(page, 'admin-costs');
    assertNoPageErrors();
    await context.close();
  }, 240_000);
});
