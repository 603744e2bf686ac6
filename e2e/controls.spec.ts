import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { GenerationRecord } from '../src/shared/generations';
import { openPage, shoot, signIn, uploadThrough, useBrowser } from './support/browser';

// The controls journey of issue 29 in Chromium with the local engine: shape and length pickers, a start
// and an end frame, four variations shown as a group with live progress each, Pick this one, Extend
// into one longer video, and playing it. Screenshots at 390 and 1440 px, light and dark, of the pickers, the group and the extended video.
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');
const COFFEE = path.resolve(import.meta.dirname, '../tests/fixtures/coffee.png');

async function records(page: Page): Promise<GenerationRecord[]> {
  const response = await page.request.get('/api/video-generation');
  expect(response.status()).toBe(200);
  return (await response.json()) as GenerationRecord[];
}

/** Presses a choice chip as a person does: its label (the radio itself is visually hidden). */
async function choose(page: Page, scope: Page | Locator, name: string) {
  await scope.locator('label', { has: page.getByRole('radio', { name, exact: true }) }).click();
}

describe('the controls journey', () => {
  it('picks 9:16 and 5 s, makes 4 variations, picks one, extends it and plays the longer video', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await signIn(page, admin.email, admin.password);
    const token = `controls${Date.now().toString(36)}`;

    // The generator: shape, length and resolution pickers of the chosen model (the local engine).
    await page.goto('/generator');
    await page.getByLabel('Video Description').fill(`Paper boats on a pond ${token}`);
    await choose(page, page, 'Portrait 9:16');
    await choose(page, page, '5 s');
    // The local engine's lowest resolution keeps the journey fast.
    await choose(page, page, '480p');
    expect(await page.getByRole('radio', { name: 'Portrait 9:16' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: '5 s', exact: true }).isChecked()).toBe(true);

    // A start and an end frame: the Media Input card's image is the start; the Keyframes card then
    // offers the end (the local engine takes one).
    await uploadThrough(page, 'Choose Image', CAT, '✓ Image Ready');
    await page.getByText('✓ Start frame Ready').waitFor();
    await uploadThrough(page, 'Choose End frame', COFFEE, '✓ End frame Ready');

    await choose(page, page, '4 variations');
    await shoot(page, 'controls-pickers', page.getByTestId('shape-controls'));
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/video-generation') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Generate 4 Videos' }).click();
    const sent = (await posted).postDataJSON() as { imageFile?: string; endImageFile?: string; variations?: number };
    expect(sent).toMatchObject({ variations: 4 });
    expect(sent.imageFile).toMatch(/^\/objects\/uploads\//);
    expect(sent.endImageFile).toMatch(/^\/objects\/uploads\//);
    await page.getByText('Video Generation Started', { exact: true }).waitFor();
    await page.waitForURL(/\/media\?video=/, { timeout: 15_000 });

    // The group of 4 on the media page, with live progress each until all are ready.
    const group = page.getByRole('region', { name: 'Variations (4)' });
    await group.waitFor({ timeout: 30_000 });
    expect(await group.getByRole('listitem').count()).toBe(4);
    const made = (await records(page)).filter((r) => r.prompt.includes(token));
    expect(made).toHaveLength(4);
    expect(new Set(made.map((r) => r.groupId)).size).toBe(1);
    expect(made.every((r) => r.duration === 5 && r.settings?.aspectRatio === '9:16')).toBe(true);
    expect(made.every((r) => r.inputs?.endImage)).toBe(true);
    // While any is unfinished, its card shows its own progress bar, named after it.
    if (made.some((r) => r.status !== 'completed')) {
      await group
        .getByRole('progressbar', { name: /^Progress of Variation [1-4]$/ })
        .first()
        .waitFor();
    }
    await group.getByText('4 of 4 ready').waitFor({ timeout: 240_000 });
    await shoot(page, 'controls-group', group);

    // Pick this one: the second variation goes to the player, where Extend carries on from it.
    await group.getByRole('button', { name: 'Pick this one: Variation 2' }).click();
    await group.getByRole('listitem', { name: 'Variation 2' }).getByText('In the player').waitFor();
    const player = page.getByRole('region', { name: 'Player' });
    // The player now plays the picked variation: its video's address names its file, which names it.
    const source = (await player.locator('video').first().getAttribute('src')) ?? '';
    const file = Buffer.from(new URL(source, baseUrl).pathname.split('/').pop() ?? '', 'base64url').toString();
    const picked = made.find((r) => file.includes(r.id));
    if (!picked) throw new Error(`the player does not play one of the variations: ${source}`);
    await player.getByRole('button', { name: /Extend/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Add').selectOption({ index: 0 });
    const added = Number(await dialog.getByLabel('Add').inputValue());
    await choose(page, dialog, '0.5 s');
    await expect.poll(() => dialog.getByTestId('extend-length').textContent()).toBe(`about ${5 + added - 0.5} s`);
    await dialog.getByRole('button', { name: 'Extend Video' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The extended video: one new record naming the picked one as its parent, the sum less the crossfade.
    let extended: GenerationRecord | undefined;
    await expect
      .poll(
        async () => {
          extended = (await records(page)).find((r) => r.parentId === picked.id);
          if (extended?.status === 'failed') throw new Error(`extend failed: ${extended.errorMessage ?? ''}`);
          return extended?.status;
        },
        { timeout: 240_000, interval: 1000 },
      )
      .toBe('completed');
    if (!extended) throw new Error('no extended video');
    expect(extended.duration).toBeCloseTo(5 + added - 0.5, 0);

    // It plays: the player's video has data and its time advances.
    await page.goto(`/media?video=${encodeURIComponent(extended.id)}`);
    const video = page.getByRole('region', { name: 'Player' }).locator('video').first();
    await video.waitFor();
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await page.waitForFunction(
      (el) => el instanceof HTMLVideoElement && el.readyState >= 2 && el.currentTime > 0.3,
      await video.elementHandle(),
      { timeout: 30_000 },
    );
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    await shoot(page, 'controls-extended', page.getByRole('region', { name: 'Player' }));
    assertNoPageErrors();
    await context.close();
  }, 600_000);
});
