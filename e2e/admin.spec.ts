import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { makeFinishedVideo, openPage, saveShot, shoot, useBrowser } from './support/browser';

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

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
/**
 * Screenshots at 390 and 1440 px, light and dark, into test-results/screenshots/{name}-{size}[-dark].png,
 * each once the layout for that width (cards or table) is drawn and `target` is scrolled into view
 * (to the middle, or to the top just below the sticky header).
 */
async function shootUsers(page: Page, name: string, target: Locator, at: 'top' | 'middle'): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      await (size === 'phone' ? page.getByRole('list', { name: 'Users' }) : page.getByRole('table')).waitFor();
      await target.evaluate((element, top) => {
        element.scrollIntoView({ block: top ? 'start' : 'center' });
        if (top) window.scrollBy(0, -110);
      }, at === 'top');
      // Two frames: the scroll and the colour scheme are painted.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await saveShot(page, `${name}-${size}${scheme === 'dark' ? '-dark' : ''}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The horizontal space between two targets side by side. */
async function gapBetween(left: Locator, right: Locator): Promise<number> {
  const [a, b] = await Promise.all([left.boundingBox(), right.boundingBox()]);
  if (!a || !b) throw new Error('a target is not on screen');
  return b.x - (a.x + a.width);
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
    await makeFinishedVideo(page, baseUrl, `A lighthouse at dusk ${token}`);

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

  it('edits a user on a 390 px phone in the card view, and each value lands in its own field on the server', async () => {
    const stamp = Date.now().toString(36);
    const email = `phone-${stamp}@example.com`;
    const other = `phone-other-${stamp}@example.com`;
    const setup = await openPage(browser.get(), baseUrl);
    await registerUser(setup.page, other, 'Olive');
    await registerUser(setup.page, email, 'Paula');
    await setup.context.close();

    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { viewport: PHONE });
    await signInThroughForm(page, admin.email, admin.password);
    await page.goto('/admin');
    const list = page.getByRole('list', { name: 'Users' });
    await list.waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    const searched = page.waitForResponse((r) => r.url().includes(`q=${stamp}`));
    await page.getByLabel('Search users').fill(stamp);
    await searched;
    const card = list.getByRole('listitem', { name: email });
    await card.waitFor();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);

    // The 'Sort by' menu sorts on the server, as the desktop header does.
    const byCredits = page.waitForResponse(
      (r) => r.url().includes('sort=availableCredits') && r.url().includes('order=asc'),
    );
    await page.getByLabel('Sort by').selectOption({ label: 'Current Credits' });
    await byCredits;
    const descending = page.waitForResponse(
      (r) => r.url().includes('sort=availableCredits') && r.url().includes('order=desc'),
    );
    await page.getByLabel('Order').selectOption({ label: 'Descending' });
    await descending;

    // Edit is a 44 px primary action; Delete stands well apart from it.
    const edit = card.getByRole('button', { name: `Edit ${email}` });
    const remove = card.getByRole('button', { name: `Delete ${email}` });
    expect((await edit.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect((await remove.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await gapBetween(edit, remove)).toBeGreaterThanOrEqual(8);
    await shootUsers(page, 'admin-users', page.getByRole('heading', { name: 'User Management' }), 'top');

    await page.setViewportSize(PHONE);
    await edit.click();
    const save = card.getByRole('button', { name: `Save ${email}` });
    await save.waitFor();
    expect((await save.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await card.getByLabel('First name').fill('Penelope');
    await card.getByLabel('Current credits').fill('25');
    await card.getByLabel('Credits used').fill('7');
    await shootUsers(page, 'admin-users-edit', page.getByLabel('Email', { exact: true }), 'top');
    // At 1440 px the edited row fits: every input is in view under its own header, none scrolled away.
    await page.setViewportSize(DESKTOP);
    const table = page.getByRole('table');
    await table.waitFor();
    expect(
      await table.evaluate((element) => element.scrollWidth - element.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0);
    await page.setViewportSize(PHONE);
    await save.click();
    await page.getByText('User Updated', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Edit ${email}` }).waitFor();

    const read = await page.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
    const [saved] = (await read.json()) as Record<string, unknown>[];
    expect(saved).toMatchObject({
      email,
      firstName: 'Penelope',
      availableCredits: 25,
      totalCreditsUsed: 7,
    });
    // The other user is untouched.
    const untouched = await page.request.get(`/api/admin/users?q=${encodeURIComponent(other)}`);
    expect((await untouched.json())[0]).toMatchObject({ firstName: 'Olive', totalCreditsUsed: 0 });

    // On a desktop the row's Edit and Delete are 24 px or more and 8 px apart.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table').waitFor();
    const rowEdit = page.getByRole('button', { name: `Edit ${email}` });
    const rowDelete = page.getByRole('button', { name: `Delete ${email}` });
    expect((await rowEdit.boundingBox())?.height).toBeGreaterThanOrEqual(24);
    expect(await gapBetween(rowEdit, rowDelete)).toBeGreaterThanOrEqual(8);
    assertNoPageErrors();
    await context.close();
  }, 120_000);
});
