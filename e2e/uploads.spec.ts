import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { makeMediaFixtures } from '../tests/support/media';
import { axeOn, openPage, recordAddedTexts, shoot, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const browser = useBrowser();
// tests/fixtures/chelsea.png: 451x300, CC0 (tests/fixtures/README.md).
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');

type PickedFile = string | { name: string; mimeType: string; buffer: Buffer };

async function register(page: Page, who: string): Promise<void> {
  const registered = await page.request.post('/api/auth/register', {
    data: { email: `${who}-${Date.now()}@example.com`, password: 'upload-password', firstName: 'Uma' },
    headers: { origin: baseUrl },
  });
  expect(registered.status()).toBe(201);
}

/** Picks a file in the open upload dialog and presses its upload button; resolves with our upload URL's answer. */
async function uploadInDialog(page: Page, file: PickedFile): Promise<number> {
  // Each input has its own dialog: the one shown is the open one.
  const dialog = page.locator('.uppy-Dashboard[aria-hidden=false]');
  const picker = dialog.locator('input[type=file]').first();
  await picker.waitFor({ state: 'attached' });
  await picker.setInputFiles(file);
  const uploaded = page.waitForResponse((r) => r.url().includes('/api/uploads/') && r.request().method() === 'PUT');
  await dialog.getByRole('button', { name: /^Upload 1 file/ }).click();
  return (await uploaded).status();
}

describe('uploads in the browser', () => {
  it("uploads an image through the dialog and shows '✓ Image Ready'", async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await register(page, 'uploader');
    await page.goto('/generator');
    await page.getByRole('button', { name: 'Choose Image' }).click();
    // Recorded from before the upload: the toast may be replaced at once by the image analysis's own.
    const addedTexts = await recordAddedTexts(page);
    expect(await uploadInDialog(page, CAT)).toBe(200);
    await page.getByText('✓ Image Ready').waitFor();
    await expect
      .poll(async () => (await addedTexts()).some((text) => text.includes('Image Uploaded')), { timeout: 10_000 })
      .toBe(true);
    assertNoPageErrors();
    await context.close();
  });

  it('says in plain words why a file was refused: a .png that is not a picture', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 390, height: 844 },
    });
    await register(page, 'refused');
    await page.goto('/generator');
    await page.getByRole('button', { name: 'Choose Image' }).click();
    const addedTexts = await recordAddedTexts(page);
    // Its name and type pass the dialog's own check; its content does not pass the server's.
    const fake = {
      name: 'holiday.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some text, not a picture\n'.repeat(200)),
    };
    expect(await uploadInDialog(page, fake)).toBe(415);
    await expect
      .poll(
        async () =>
          (await addedTexts()).some((text) => text.includes('Only images, videos and audio files can be uploaded.')),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    expect((await addedTexts()).some((text) => /S3|returned/.test(text))).toBe(false);
    // The same file could only be refused again: no Retry, on the file or in the status bar.
    const dialog = page.locator('.uppy-Dashboard[aria-hidden=false]');
    await dialog.locator('.uppy-StatusBar.is-error').waitFor();
    expect(await dialog.getByRole('button', { name: /Retry/i }).count()).toBe(0);
    await shoot(page, 'upload-refused');
    assertNoPageErrors();
    await context.close();
  });

  it("shows what will be used: the image itself, a video's first frame and length, an audio file's length; Remove takes one away", async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await register(page, 'previewer');
    const media = await makeMediaFixtures();
    await page.goto('/generator');

    await page.getByRole('button', { name: 'Choose Image' }).click();
    expect(await uploadInDialog(page, CAT)).toBe(200);
    const image = page.getByRole('img', { name: 'Image to use: chelsea.png' });
    await image.waitFor();
    // The picture itself, loaded through the owner's view of the upload.
    await page.waitForFunction(
      (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
      await image.elementHandle(),
    );
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(451);

    await page.getByRole('button', { name: 'Choose Video' }).click();
    expect(await uploadInDialog(page, { name: 'clip.mp4', mimeType: 'video/mp4', buffer: media.video })).toBe(200);
    await page.getByText('clip.mp4 · Length 0:03').waitFor();

    await page.getByRole('button', { name: 'Choose Audio' }).click();
    expect(await uploadInDialog(page, { name: 'tone.wav', mimeType: 'audio/wav', buffer: media.audio })).toBe(200);
    await page.getByText('tone.wav · Length 0:04').waitFor();

    // Each preview's buttons say what they act on.
    for (const kind of ['image', 'video', 'audio']) {
      await page.getByRole('button', { name: `Replace ${kind}` }).waitFor();
      await page.getByRole('button', { name: `Remove ${kind}` }).waitFor();
    }
    // The upload toasts gone, so the pictures show the card alone.
    await page.getByText('Audio Uploaded', { exact: true }).waitFor({ state: 'hidden' });
    await page.locator('[data-upload-preview=image]').scrollIntoViewIfNeeded();
    await shoot(page, 'upload-previews');

    // No serious or critical axe violation in the previews (contrast included), light or dark.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await axeOn(page)
        .include('[data-upload-preview]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      expect(serious, scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Every Replace and Remove: 44 px tall on a phone, at least 24 px on a desktop, its words never cut off.
    for (const [width, least] of [
      [390, 44],
      [1440, 24],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      const buttons = page.locator('[data-upload-preview] button');
      expect(await buttons.count()).toBe(6);
      for (const button of await buttons.all()) {
        const box = await button.boundingBox();
        expect(box?.height, `${await button.getAttribute('aria-label')} at ${width} px`).toBeGreaterThanOrEqual(least);
        expect(box?.width).toBeGreaterThanOrEqual(least);
        expect(await button.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      }
    }

    await page.getByRole('button', { name: 'Remove image' }).click();
    await image.waitFor({ state: 'detached' });
    const choose = page.getByRole('button', { name: 'Choose Image' });
    expect(await choose.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByText('clip.mp4 · Length 0:03').waitFor();
    await shoot(page, 'upload-previews-image-removed');
    assertNoPageErrors();
    await context.close();
  });
});
