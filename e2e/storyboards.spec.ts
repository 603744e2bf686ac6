import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Storyboard } from '../src/shared/storyboards';
import { openPage, openSettled, shoot, signIn, useBrowser } from './support/browser';

// A storyboard in Chromium (issue 47): three shots on the local engine, one moved by keyboard, every
// missing shot rendered, the film made and played.
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const shotCard = (page: Page, number: number): Locator => page.getByRole('article', { name: `Shot ${number}` });

/** Says what happens in a shot, on the local engine at 480p for 2 s (quick to render). */
async function describeShot(page: Page, number: number, words: string) {
  const card = shotCard(page, number);
  await card.getByLabel(`What happens in Shot ${number}`).fill(words);
  await card.getByLabel('Model').selectOption({ label: 'Local preview engine' });
  await card.getByLabel('Resolution').selectOption('480p');
  await card.getByLabel('Duration').selectOption('2');
}

async function boardOf(page: Page, id: string): Promise<Storyboard> {
  return (await (await page.request.get(`/api/storyboards/${id}`)).json()) as Storyboard;
}

const descriptions = (page: Page) =>
  page
    .getByRole('list', { name: 'Shots' })
    .getByRole('textbox', { name: /^What happens in Shot/ })
    .evaluateAll((boxes) => boxes.map((box) => (box as HTMLTextAreaElement).value));

describe('storyboards in the browser', () => {
  it('builds a three-shot board, reorders it by keyboard, renders it, makes the film and plays it', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await signIn(page, admin.email, admin.password);
    const token = `board${Date.now().toString(36)}`;

    // From the generator to the boards, and a new one.
    await openSettled(page, '/generator');
    await page.getByRole('link', { name: 'Plan several shots in a storyboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Storyboards' }).waitFor();
    await page.getByRole('button', { name: 'New storyboard' }).first().click();
    await page.waitForURL(/\/storyboards\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').at(-1) ?? '';
    await shotCard(page, 1).waitFor();

    await page.getByLabel('Storyboard name').fill(`The lighthouse ${token}`);
    await describeShot(page, 1, 'Dawn: the keeper climbs the stairs');
    await page.getByRole('button', { name: 'Add shot' }).click();
    await describeShot(page, 2, 'Noon: the lamp is polished');
    await page.getByRole('button', { name: 'Add shot' }).click();
    await describeShot(page, 3, 'Dusk: the beam sweeps the sea');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    // Shot 3 moves up to first place from its handle, by keyboard.
    await shotCard(page, 3).getByRole('button', { name: 'Reorder Shot 3' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.getByText('Shot 3 moved to position 2 of 3.').waitFor({ state: 'attached' });
    await page.keyboard.press('Alt+ArrowUp');
    await page.getByText('Shot 2 moved to position 1 of 3.').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Reorder Shot 1');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const order = ['Dusk: the beam sweeps the sea', 'Dawn: the keeper climbs the stairs', 'Noon: the lamp is polished'];
    expect(await descriptions(page)).toEqual(order);
    // The order is the saved one after a reload.
    await openSettled(page, `/storyboards/${id}`);
    await shotCard(page, 3).waitFor();
    expect(await descriptions(page)).toEqual(order);
    await shoot(page, 'storyboard-editor', shotCard(page, 1));

    // The price on the button is the server's, and the sum of the shots' own.
    const before = await boardOf(page, id);
    const render = page.getByRole('button', { name: /^Render missing shots \(3\)/ });
    const shotPrices = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const label =
          (await shotCard(page, n)
            .getByRole('button', { name: /^Render · / })
            .getAttribute('aria-label')) ?? '';
        return Number(/^Render · ([\d.]+) credits?, Shot/.exec(label)?.[1]);
      }),
    );
    expect(shotPrices.reduce((sum, price) => sum + price, 0)).toBe(before.creditsToRender);
    expect(await render.textContent()).toContain(
      `· ${before.creditsToRender} ${before.creditsToRender === 1 ? 'credit' : 'credits'}`,
    );
    await render.click();
    await page.getByRole('status').filter({ hasText: 'Started: Shot 1, Shot 2, Shot 3.' }).waitFor();
    await shoot(page, 'storyboard-rendering', shotCard(page, 1));
    for (const n of [1, 2, 3])
      await shotCard(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: 150_000 });
    await shotCard(page, 1).getByRole('listitem', { name: 'Take 1, in use' }).waitFor();
    await shoot(page, 'storyboard-rendered', shotCard(page, 3));

    // The film: made, followed, then played.
    const make = page.getByRole('button', { name: 'Make the film' });
    expect(await make.isEnabled()).toBe(true);
    await make.click();
    const film = page.getByLabel('The film', { exact: true });
    await film.waitFor({ timeout: 150_000 });
    const made = (await boardOf(page, id)).films[0];
    expect(made?.status).toBe('completed');
    expect(await page.getByRole('link', { name: 'Open in Media' }).getAttribute('href')).toBe(
      `/media?video=${made?.id}`,
    );
    await film.evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      await video.play();
    });
    await page.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('video[aria-label="The film"]');
      return video !== null && video.readyState >= 2 && video.currentTime > 0.1;
    });
    await film.evaluate((video: HTMLVideoElement) => video.pause());
    await shoot(page, 'storyboard-film', film);

    // The list: this board with its three ready shots.
    await page.getByRole('link', { name: 'All storyboards' }).click();
    const item = page.getByRole('listitem').filter({ hasText: `The lighthouse ${token}` });
    await item.getByText('3 shots · 3 ready').waitFor();
    await shoot(page, 'storyboards-list');
    assertNoPageErrors();
    await context.close();
  }, 400_000);
});
