import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { GenerationRecord } from '../src/shared/generations';
import type { Locator } from 'playwright-core';
import { animationsDone, nextFrames, openPage, saveShot, signIn, useBrowser } from './support/browser';

// Remix and Continue in Chromium, with the local engine standing in for a model that takes an image.
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const CAT = readFileSync(path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png'));
const browser = useBrowser();
const headers = { origin: baseUrl };

async function uploadImage(page: Page): Promise<string> {
  const target = await page.request.post('/api/objects/upload', { headers });
  expect(target.status()).toBe(200);
  const { uploadURL, objectPath } = (await target.json()) as { uploadURL: string; objectPath: string };
  const put = await page.request.put(uploadURL, {
    data: CAT,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
  });
  expect(put.status()).toBe(200);
  return objectPath;
}

/** Screenshots at 390 and 1440 px, light and dark, with `target` scrolled into view (after `open`, when given). */
async function shootAt(page: Page, name: string, target: Locator, open?: () => Promise<void>) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1440, height: 900 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await target.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      if (open) await open();
      await animationsDone(page);
      await nextFrames(page);
      await saveShot(page, `${name}-${size}${scheme === 'dark' ? '-dark' : ''}`);
      if (open) await page.keyboard.press('Escape');
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function records(page: Page): Promise<GenerationRecord[]> {
  const response = await page.request.get('/api/video-generation');
  return (await response.json()) as GenerationRecord[];
}

async function waitForCompleted(page: Page, match: (record: GenerationRecord) => boolean): Promise<GenerationRecord> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const found = (await records(page)).find(match);
    if (found?.status === 'completed') return found;
    if (found?.status === 'failed') throw new Error(`generation failed: ${found.errorMessage ?? ''}`);
    if (Date.now() > deadline) throw new Error('generation did not finish in time');
    await page.waitForTimeout(500);
  }
}

/** Opens a finished video in the media page's player. */
async function openInPlayer(page: Page, token: string) {
  await page.goto('/media');
  await page.getByRole('tab', { name: /Completed/ }).click();
  const card = page.getByRole('button', { name: new RegExp(token) }).first();
  await card.waitFor({ timeout: 30_000 });
  await card.click();
  await page.getByRole('region', { name: 'Player' }).getByText(new RegExp(token)).first().waitFor();
}

describe('remix and continue in the browser', () => {
  it('remixes a finished video with its prompt, settings, model and image, and continues another from its last frame', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signIn(page, admin.email, admin.password);
    const token = `remix${Date.now().toString(36)}`;
    const image = await uploadImage(page);
    const first = await page.request.post('/api/video-generation', {
      headers,
      data: {
        prompt: `A cat by the ${token} window`,
        imageFile: image,
        model: 'local',
        duration: 3,
        jsonPrompt: '{"aspectRatio":"9:16","seed":7}',
      },
    });
    expect(first.status()).toBe(201);
    const original = await waitForCompleted(page, (r) => r.prompt.includes(token));
    expect(original.inputs?.image).toBe(image);

    // Remix: the generator opens with everything filled in.
    await openInPlayer(page, token);
    const actions = page.getByRole('group', { name: 'Make another video from this one' });
    await actions.getByRole('button', { name: 'Remix' }).waitFor();
    await actions.getByRole('button', { name: 'Continue' }).waitFor();
    await shootAt(page, 'remix-controls', actions);
    await actions.getByRole('button', { name: 'Remix' }).click();
    await page.waitForURL('**/generator');
    await page.getByText(/Remix:/).waitFor();
    expect(await page.getByLabel('Video Description').inputValue()).toBe(`A cat by the ${token} window`);
    const settings = JSON.parse(await page.getByLabel('Advanced settings (JSON)').inputValue()) as Record<
      string,
      unknown
    >;
    // The shape is a control of its own now (issue 29); the JSON box keeps the rest.
    expect(settings).toEqual({ seed: 7 });
    expect(await page.getByRole('radio', { name: 'Portrait 9:16' }).isChecked()).toBe(true);
    await page.getByText('✓ Image Ready').waitFor();
    await expect
      .poll(() =>
        page
          .getByLabel('Model', { exact: true })
          .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? ''),
      )
      .toContain('Local preview engine');
    await page.getByTestId('model-note').waitFor();
    await shootAt(page, 'remix-generator', page.getByText(/Remix:/));
    await shootAt(page, 'generator-model-note', page.getByTestId('model-note'));

    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByText('Video Generation Started', { exact: true }).waitFor();
    await page.waitForURL(/\/media(\?|$)/, { timeout: 10_000 });
    const remixed = await waitForCompleted(page, (r) => r.prompt.includes(token) && r.id !== original.id);
    expect(remixed).toMatchObject({ model: 'local', settings: { aspectRatio: '9:16', seed: 7 } });
    expect(remixed.inputs?.image).toBe(image);

    // Continue: the last frame becomes a new upload of the user's, the prompt is edited.
    await openInPlayer(page, token);
    await page
      .getByRole('group', { name: 'Make another video from this one' })
      .getByRole('button', { name: 'Continue' })
      .click();
    await page.waitForURL('**/generator');
    await page.getByText(/Continue:/).waitFor();
    await page.getByText('✓ Image Ready').waitFor();
    await shootAt(page, 'continue-generator', page.getByText(/Continue:/));
    const next = `Then the cat jumps out of the ${token} frame`;
    await page.getByLabel('Video Description').fill(next);
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByText('Video Generation Started', { exact: true }).waitFor();
    const continued = await waitForCompleted(page, (r) => r.prompt === next);
    const frame = continued.inputs?.image ?? '';
    expect(frame).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    expect(frame).not.toBe(image);
    expect(frame.split('/')[3]).toBe(image.split('/')[3]);

    // The dashboard's video window offers the same two actions.
    await page.goto('/dashboard');
    await page
      .getByRole('button', { name: new RegExp(token) })
      .first()
      .click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('button', { name: 'Remix' }).waitFor();
    await shootAt(page, 'remix-dashboard-modal', modal.getByRole('button', { name: 'Remix' }));
    assertNoPageErrors();
    await context.close();
  }, 240_000);
});
