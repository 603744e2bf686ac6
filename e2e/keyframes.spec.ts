import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startBuiltServer } from './support/app-server';
import { openPage, shoot, uploadThrough, useBrowser } from './support/browser';

// Keyframes in the browser: on the local engine (it takes an end frame) the generator offers the
// Start frame and End frame slots, each uploaded through the dialog, and Generate sends both. With a
// fal key, Veo 3.1 (reference images or frames, not both) shows the rule in the slot not in use.

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

describe('reference images or frames, not both (Veo 3.1 on fal.ai)', () => {
  let app: RunningServer | undefined;
  beforeAll(async () => {
    // A key so the catalogue offers fal's models; nothing is generated, and the address answers nothing.
    app = await startBuiltServer({ FAL_KEY: 'e2e-unused-key', FAL_BASE_URL: 'http://127.0.0.1:9' });
  }, 200_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('says in the slot not in use why it is unavailable, and its button clears the other side', async () => {
    const baseUrl = app?.baseUrl ?? '';
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `either-or-${Date.now()}@example.com`, password: 'either-or-password', firstName: 'Eli' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    await page.getByLabel('Model', { exact: true }).selectOption('fal-veo3.1');
    await uploadThrough(page, 'Choose Reference images', CAT, 'Reference 1');
    const framesNote = page.getByText(
      'Veo 3.1 (fal.ai) takes reference images or a start and end frame, not both. Remove the reference images to use frames.',
    );
    await framesNote.waitFor();
    await page
      .getByText(
        'Veo 3.1 (fal.ai) takes an image or reference images, not both. Remove the reference images to add one.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Choose Image' }).count()).toBe(0);
    await shoot(page, 'keyframes-references-alone', framesNote);

    await page.getByRole('button', { name: 'Remove reference images' }).click();
    await uploadThrough(page, 'Choose Image', CAT, '✓ Image Ready');
    await uploadThrough(page, 'Choose End frame', COFFEE, '✓ End frame Ready');
    const referencesNote = page.getByText(
      'Veo 3.1 (fal.ai) takes a start and end frame or reference images, not both. Remove the frames to add reference images.',
    );
    await referencesNote.waitFor();
    expect(await page.getByRole('button', { name: 'Choose Reference images' }).count()).toBe(0);
    await shoot(page, 'keyframes-frames-alone', referencesNote);
    await page.getByRole('button', { name: 'Remove frames' }).click();
    await page.getByRole('button', { name: 'Choose Reference images' }).waitFor();
    await page.getByRole('button', { name: 'Choose Image' }).waitFor();
    assertNoPageErrors();
    await context.close();
  });
});
