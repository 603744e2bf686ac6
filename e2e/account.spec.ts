import { describe, expect, inject, it } from 'vitest';
import { PASSWORD_CHANGED_MESSAGE } from '../src/shared/accounts';
import type { Locator } from 'playwright-core';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

const VARIANTS = [
  { name: 'phone, light', viewport: { width: 390, height: 844 }, colorScheme: 'light', screenshots: true },
  { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark', screenshots: false },
  { name: 'desktop, light', viewport: { width: 1440, height: 900 }, colorScheme: 'light', screenshots: false },
  { name: 'desktop, dark', viewport: { width: 1440, height: 900 }, colorScheme: 'dark', screenshots: false },
] as const;

describe('self-service on /account', () => {
  it.each(VARIANTS)(
    'changes the name, changes the password and signs in with it, then deletes the account and is signed out ($name)',
    async ({ viewport, colorScheme, screenshots }) => {
      const email = uniqueEmail('self');
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { viewport, colorScheme });
      /** The four screenshots of this moment, then back to this journey's own size and colours. */
      const snap = async (name: string, around?: Locator) => {
        if (!screenshots) return;
        await shoot(page, name, around);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
      };
      const created = await page.request.post('/api/auth/register', {
        data: { email, password: 'first-password-1', firstName: 'Grace' },
        headers: { origin: baseUrl },
      });
      expect(created.status()).toBe(201);

      // The name.
      await page.goto('/account');
      const nameForm = page.getByRole('form', { name: 'Your name' });
      await nameForm.getByLabel('Last name').fill('Hopper');
      await nameForm.getByRole('button', { name: 'Save Name' }).click();
      await nameForm.getByText('Your name was saved.').waitFor();
      await page.reload();
      expect(await page.getByRole('form', { name: 'Your name' }).getByLabel('Last name').inputValue()).toBe('Hopper');
      await snap('account-details');

      // The password: a too-short one says why while typing, then the change keeps this session.
      const passwordForm = page.getByRole('form', { name: 'Change password' });
      await passwordForm.getByLabel('Current password').fill('first-password-1');
      await passwordForm.getByLabel('New password', { exact: true }).fill('short');
      await passwordForm.getByText('The new password must be at least 8 characters: 3 more to go.').waitFor();
      await snap('account-password-too-short', passwordForm);
      await passwordForm.getByLabel('New password', { exact: true }).fill('second-password-2');
      await passwordForm.getByLabel('New password again').fill('second-password-2');
      await passwordForm.getByRole('button', { name: 'Change Password' }).click();
      await passwordForm.getByText(PASSWORD_CHANGED_MESSAGE).waitFor();
      expect((await page.request.get('/api/auth/user')).status()).toBe(200);

      await page.request.post('/api/auth/logout', { headers: { origin: baseUrl } });
      await signIn(page, email, 'second-password-2');

      // Deleting the account: the admin page's confirmation, with the password.
      await page.goto('/account');
      await page.getByRole('button', { name: 'Delete Account' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete Account' });
      await dialog
        .getByText(
          `Are you sure you want to delete your account ${email}? This action cannot be undone and will permanently delete all your data.`,
        )
        .waitFor();
      await dialog.getByLabel('Your password').fill('first-password-1');
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await dialog.getByText('Your current password is not right.').waitFor();
      await dialog.getByLabel('Your password').fill('second-password-2');
      await snap('account-delete-dialog');
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByText('Your account and all its data were deleted.').first().waitFor();
      await snap('account-deleted-login');
      expect((await page.request.get('/api/auth/user')).status()).toBe(401);
      const again = await page.request.post('/api/auth/login', {
        data: { email, password: 'second-password-2' },
        headers: { origin: baseUrl },
      });
      expect(again.status()).toBe(401);
      assertNoPageErrors();
      await context.close();
    },
  );
});
