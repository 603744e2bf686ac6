import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, signIn, uploadImage, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const ASTRONAUT = path.resolve(import.meta.dirname, '../tests/fixtures/astronaut.png');
const browser = useBrowser();

// Real people only with consent (issue 43): a photo of a person needs the uploader's confirmation
// before a video is made from it.
describe('consent for a picture of a person', () => {
  it(
    'asks to confirm consent for the astronaut, then makes the video once it is confirmed',
    { timeout: 120_000 },
    async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
      await signIn(page, admin.email, admin.password);
      await page.goto('/generator');
      await uploadImage(page, ASTRONAUT);
      // The image analysis ends with a toast of its own (one toast at a time): its suggestion is shown first.
      await page.getByRole('heading', { name: 'Suggested prompt' }).waitFor({ timeout: 60_000 });
      await page.getByLabel('Video Description').fill(`The astronaut smiles at the camera ${Date.now().toString(36)}`);

      await page.getByRole('button', { name: 'Generate Video' }).click();
      await page.getByText('Confirm Consent', { exact: true }).waitFor();
      const box = page.getByRole('checkbox', { name: /I am the person shown/ });
      await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
      await shoot(page, 'generator-consent', box);

      await box.check();
      await page.getByRole('button', { name: 'Generate Video' }).click();
      await page.getByText('Video Generation Started', { exact: true }).waitFor();
      await page.waitForURL(/\/media\?video=/, { timeout: 10_000 });
      assertNoPageErrors();
      await context.close();
    },
  );
});
