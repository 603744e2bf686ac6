import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { Storyboard } from '../src/shared/storyboards';
import { JOURNEY_SIZES, journeyShots, openPage, openSettled, signIn, useBrowser } from './support/browser';

// A storyboard in Chromium (issue 47), on a desktop and on a phone: a character made in the library,
// three shots on the local engine (the first with the character), one moved by keyboard, every
// missing shot rendered, the film made and played.
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');

/** Adds a character to the library from the Characters page: a name, a description and one picture. */
async function addCharacter(page: Page, name: string) {
  await openSettled(page, '/characters');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('A grey tabby cat with a white chest');
  await page.getByRole('button', { name: 'Choose a picture' }).click();
  const picker = page.locator('.uppy-Dashboard input[type=file]').first();
  await picker.waitFor({ state: 'attached' });
  await picker.setInputFiles(CAT);
  await page.getByRole('button', { name: /^Upload 1 file/ }).click();
  await page.getByRole('img', { name: `Picture 1 of ${name}` }).waitFor();
  await page.getByRole('button', { name: 'Add character' }).click();
  await page.getByRole('list', { name: 'Your characters' }).getByRole('heading', { name }).waitFor();
}

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
  it.each(JOURNEY_SIZES)(
    'on %s: builds a three-shot board with a character, reorders it by keyboard, renders it, makes the film and plays it',
    async (_name, width, height) => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
        viewport: { width, height },
      });
      await signIn(page, admin.email, admin.password);
      // Screenshots at every size and scheme (in the desktop run), then back to this journey's own size.
      const snap = journeyShots(page, width, height);
      const token = `board${Date.now().toString(36)}`;
      const character = `Whiskers ${token}`;
      await addCharacter(page, character);
      await snap('characters');

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
      await shotCard(page, 1).getByLabel('Character in shot 1').selectOption({ label: character });
      await shotCard(page, 1)
        .getByText('This model takes no reference pictures: their name and description go into the description.')
        .waitFor();
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
      const order = [
        'Dusk: the beam sweeps the sea',
        'Dawn: the keeper climbs the stairs',
        'Noon: the lamp is polished',
      ];
      expect(await descriptions(page)).toEqual(order);
      // The order is the saved one after a reload.
      await openSettled(page, `/storyboards/${id}`);
      await shotCard(page, 3).waitFor();
      expect(await descriptions(page)).toEqual(order);
      await snap('storyboard-editor', shotCard(page, 1));

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
      await snap('storyboard-rendering', shotCard(page, 1));
      for (const n of [1, 2, 3])
        await shotCard(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: 150_000 });
      await shotCard(page, 1).getByRole('listitem', { name: 'Take 1, in use' }).waitFor();
      await snap('storyboard-rendered', shotCard(page, 3));
      // The character went into the take of the shot it was put in (the local engine keeps it by its words).
      const rendered = await boardOf(page, id);
      const withCharacter = rendered.shots.find((shot) => shot.description === 'Dawn: the keeper climbs the stairs');
      expect(withCharacter?.takes[0]?.prompt).toBe(
        `Dawn: the keeper climbs the stairs\n\n${character}: A grey tabby cat with a white chest`,
      );

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
      await snap('storyboard-film', film);

      // The list: this board with its three ready shots.
      await page.getByRole('link', { name: 'All storyboards' }).click();
      const item = page.getByRole('listitem').filter({ hasText: `The lighthouse ${token}` });
      await item.getByText('3 shots · 3 ready').waitFor();
      await snap('storyboards-list');
      assertNoPageErrors();
      await context.close();
    },
    400_000,
  );
});
