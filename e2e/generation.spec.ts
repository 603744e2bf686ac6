import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { CreatedGenerationRecord } from '../src/shared/generations';
import { formatCreditCount } from '../src/shared/money/credits';
import { openPage, shoot, signIn, uploadImage, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');
const browser = useBrowser();

/** A slow job queued first, so ours waits in the queue long enough to watch its progress bar. */
async function queueSlowJob(page: Page) {
  const response = await page.request.post('/api/video-generation', {
    data: { prompt: 'A slow violet and teal aurora', duration: 10, jsonPrompt: '{"resolution":"1080p"}' },
    headers: { origin: baseUrl },
  });
  expect(response.status()).toBe(201);
}

describe('making a video in the browser', () => {
  // Two renders back to back (the slow job, then ours) take most of a minute on a busy machine.
  it(
    'uploads, generates with music, watches progress, plays, downloads, finds it on the dashboard and deletes it',
    { timeout: 180_000 },
    async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
      await signIn(page, admin.email, admin.password);
      await page.goto('/generator');
      await uploadImage(page, CAT);
      // The image analysis ends with a toast of its own, which would replace the refusal's (one toast
      // at a time): its suggestion is shown first.
      await page.getByRole('heading', { name: 'Suggested prompt' }).waitFor({ timeout: 60_000 });
      // A description the content policy refuses: the rule in words, nothing charged, the cursor back in the box.
      const description = page.getByLabel('Video Description');
      await description.fill('A cat posing n-a-k-e-d on a sofa');
      await page.getByRole('button', { name: 'Generate Video' }).click();
      await page.getByText('Description Not Allowed', { exact: true }).waitFor();
      await page.getByText('This server does not make sexual or explicit content.', { exact: false }).first().waitFor();
      await expect.poll(() => description.evaluate((element) => element === document.activeElement)).toBe(true);
      await shoot(page, 'generator-refused');

      const token = `harbour${Date.now().toString(36)}`;
      await page.getByLabel('Video Description').fill(`A slow zoom in on the cat at the ${token}, with gentle music`);
      await page.getByText('Audio Enabled').waitFor();
      await shoot(page, 'generator');
      await queueSlowJob(page);

      await page.getByRole('button', { name: 'Generate Video' }).click();
      await page.getByText('Video Generation Started', { exact: true }).waitFor();
      await page.waitForURL(/\/media\?video=/, { timeout: 10_000 });
      await page.getByRole('tab', { name: /Processing/ }).click();
      const progress = page.getByRole('progressbar', { name: new RegExp(token) });
      await progress.first().waitFor({ timeout: 15_000 });
      await shoot(page, 'media-processing');

      await page.getByRole('tab', { name: /Completed/ }).click();
      const card = page.getByRole('button', { name: new RegExp(token) }).first();
      await card.waitFor({ timeout: 60_000 });
      await card.click();
      const video = page.locator('video').first();
      await video.waitFor();
      const advanced = await video.evaluate(async (element: HTMLVideoElement) => {
        element.muted = true;
        await element.play();
        const start = element.currentTime;
        // Playing means its clock moves: wait for it to have moved, by its own events.
        await new Promise<void>((resolve) => {
          const moved = () => {
            if (element.currentTime - start <= 0.3) return;
            element.removeEventListener('timeupdate', moved);
            resolve();
          };
          element.addEventListener('timeupdate', moved);
        });
        return element.currentTime - start;
      });
      expect(advanced).toBeGreaterThan(0.3);
      await shoot(page, 'media');

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download' }).first().click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^reelsmith-video-[0-9a-f-]{36}-\d+\.mp4$/);
      const file = await download.path();
      expect(readFileSync(file).subarray(4, 8).toString('latin1')).toBe('ftyp');
      await page.getByText('Download Complete', { exact: true }).waitFor();

      await page.goto('/history');
      await page.getByText(new RegExp(token)).first().waitFor();
      await shoot(page, 'history');

      await page.goto('/dashboard');
      await page.getByPlaceholder('Search videos...').fill(token.toUpperCase());
      const item = page.getByRole('button', { name: new RegExp(token) }).first();
      await item.waitFor();
      await shoot(page, 'dashboard');
      await item.click();
      const modal = page.getByRole('dialog');
      await modal.getByText(new RegExp(token)).first().waitFor();
      await modal.getByRole('button', { name: /Delete/ }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Video Deleted', { exact: true }).waitFor();
      await page.getByText('No videos found').waitFor();
      assertNoPageErrors();
      await context.close();
    },
  );

  it('makes a draft on the model and resolution it shows, charged the price it shows', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `drafts-${Date.now()}@example.com`, password: 'drafts-only-1', firstName: 'Dara' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    await page.getByLabel('Video Description').fill('A paper lantern drifting over a still lake');
    const draft = page.getByRole('switch', { name: 'Draft' });
    await draft.click();
    // Without provider keys the local preview is the only model: the draft is it, at its lowest resolution.
    await page.getByText('Draft: Local preview engine at 480p').waitFor();
    expect(await page.getByLabel('Model').isDisabled()).toBe(true);
    expect(await page.getByRole('radio', { name: '480p' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: '480p' }).isDisabled()).toBe(true);
    const shown = await page.getByText('Cost of this video').locator('xpath=following-sibling::span').textContent();
    await shoot(page, 'generator-draft', draft);
    await shoot(page, 'generator-draft-resolution', page.getByRole('group', { name: 'Resolution' }));
    // Nothing wider than a phone, and the switch a thumb's size there.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect((await draft.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await page.setViewportSize({ width: 1280, height: 800 });

    const answered = page.waitForResponse(
      (r) => r.url().endsWith('/api/video-generation') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Generate Video' }).click();
    const response = await answered;
    expect(response.request().postDataJSON()).toMatchObject({ draft: true, model: 'local', resolution: '480p' });
    const record = (await response.json()) as CreatedGenerationRecord;
    expect(record).toMatchObject({ isDraft: true, model: 'local', settings: { resolution: '480p' } });
    expect(shown).toBe(formatCreditCount(record.creditsUsed));
    assertNoPageErrors();
    await context.close();
  });

  it('keeps Generate disabled with the insufficient-credits notice for a user without enough credits', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `broke-${Date.now()}@example.com`, password: 'no-credits-here', firstName: 'Bea' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    // A new account has its sign-up credit (SIGNUP_CREDITS=1): music turns audio on, which costs 3.
    await page.getByLabel('Video Description').fill('A quiet forest at dawn with soft music');
    await page.getByText('Insufficient credits. You need 3 but have 1.').waitFor();
    expect(await page.getByRole('button', { name: 'Generate Video' }).isDisabled()).toBe(true);
    await shoot(page, 'generator-no-credits');
    assertNoPageErrors();
    await context.close();
  });
});
