import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openPage, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const browser = useBrowser();
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');

describe('uploads in the browser', () => {
  it("uploads an image through the dialog and shows '✓ Image Ready'", async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `uploader-${Date.now()}@example.com`, password: 'upload-password', firstName: 'Uma' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    await page.getByRole('button', { name: 'Choose Image' }).click();
    const picker = page.locator('.uppy-Dashboard input[type=file]').first();
    await picker.waitFor({ state: 'attached' });
    await picker.setInputFiles(CAT);
    const uploaded = page.waitForResponse((r) => r.url().includes('/api/uploads/') && r.request().method() === 'PUT');
    // Watched from before the click: the toast lasts 5 s, which a loaded machine can spend between two looks.
    const shown = Promise.all([
      page.getByText('✓ Image Ready').waitFor(),
      page.getByText('Image Uploaded', { exact: true }).waitFor(),
    ]);
    await page.getByRole('button', { name: /^Upload 1 file/ }).click();
    expect((await uploaded).status()).toBe(200);
    await shown;
    assertNoPageErrors();
    await context.close();
  });
});
