import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, uploadThrough, useBrowser } from './support/browser';

// Keyframes in the browser: on the local engine (it takes an end frame) the generator offers the
// Start frame and End frame slots, each uploaded through the dialog, and Generate sends both.

const baseUrl = inject('baseUrl');
const browser = useBrowser();
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');
const COFFEE = path.resolve(import.meta.dirname, '../tests/fixtures/coffee.png');

describe('keyframes in the browser', () => {
  it('uploads a start and an end frame and sends both with Generate', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `keyframes-${Date.now()}@example.com`, password: 'keyframes-password', firstName: 'Kim' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    // The end frame is offered once there is a start: the Media Input card's image.
    await page.getByRole('button', { name: 'Choose Image' }).waitFor();
    expect(await page.getByText('End frame', { exact: true }).count()).toBe(0);
    await uploadThrough(page, 'Choose Image', CAT, '✓ Image Ready');
    const card = page.getByText('Keyframes', { exact: true });
    await card.waitFor();
    await page.getByText('✓ Start frame Ready').waitFor();
    await uploadThrough(page, 'Choose End frame', COFFEE, '✓ End frame Ready');
    await page.getByLabel('Video Description').fill('The cat turns into a cup of coffee');
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'keyframes-generator');
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/video-generation') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Generate Video' }).click();
    const body = (await posted).postDataJSON() as { imageFile: string; endImageFile: string };
    expect(body.imageFile).toMatch(/^\/objects\/uploads\//);
    expect(body.endImageFile).toMatch(/^\/objects\/uploads\//);
    expect(body.endImageFile).not.toBe(body.imageFile);
    await page.waitForURL('**/media?video=*');
    assertNoPageErrors();
    await context.close();
  });
});
