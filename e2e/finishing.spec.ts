import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { GenerationRecord } from '../src/shared/generations';
import { makeMediaFixtures } from '../tests/support/media';
import {
  animationsDone,
  JOURNEY_SIZES,
  journeyShots,
  makeFinishedVideo,
  openPage,
  openSettled,
  signIn,
  useBrowser,
} from './support/browser';

// Finishing in Chromium (issue 48), on a desktop and on a phone: two drafts (a silent 480p video on
// the local engine, the cheapest here), the second take upscaled to 1080p on this server ("Finish
// this take"), then a recording added under the upscaled one, and the master played; the dashboard
// player's Finish opens the media page with the dialog open.
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

async function recordOf(page: Page, id: string): Promise<GenerationRecord | undefined> {
  const list = (await (await page.request.get('/api/video-generation')).json()) as GenerationRecord[];
  return list.find((record) => record.id === id);
}

/** The Finish dialog of the video in the player, opened (a draft's button says "Finish this take"). */
async function openFinish(page: Page, button = 'Finish'): Promise<Locator> {
  await page
    .getByRole('region', { name: 'Player' })
    .getByRole('group', { name: 'Make another video from this one' })
    .getByRole('button', { name: button, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Finish this video' });
  await dialog.waitFor();
  await animationsDone(page);
  return dialog;
}

/**
 * Presses the dialog's start button, then follows the new video the media page opens until it plays
 * (the player shows the new record, named by its tool, and its player once it is finished); answers its id.
 */
async function startAndFollow(page: Page, dialog: Locator, button: string, model: string, from: string) {
  await dialog.getByRole('button', { name: button }).click();
  await page.getByText('Finishing Started', { exact: true }).waitFor();
  await page.waitForURL((url) => url.pathname === '/media' && ![null, from].includes(url.searchParams.get('video')));
  const id = new URL(page.url()).searchParams.get('video') ?? '';
  const player = page.getByRole('region', { name: 'Player' });
  await player.getByText(model).waitFor();
  await player.getByLabel('Video player').waitFor({ timeout: 150_000 });
  return id;
}

/** Presses a choice chip as a person does: its label (the radio itself is visually hidden). */
async function choose(scope: Locator, name: string) {
  await scope.locator('label', { has: scope.page().getByRole('radio', { name, exact: true }) }).click();
}

/** Every target in `scope` smaller than 44 px tall (a phone's thumb), by its name. */
function smallTargets(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) =>
    Array.from(root.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]'))
      .map((element) => {
        // A chip's radio is pressed through its label.
        const target = element instanceof HTMLInputElement && element.labels?.[0] ? element.labels[0] : element;
        const rect = target.getBoundingClientRect();
        return { name: element.getAttribute('aria-label') ?? element.textContent ?? '', height: rect.height };
      })
      .filter((target) => target.height < 44)
      .map((target) => `${target.name.trim()} (${Math.round(target.height)} px)`),
  );
}

describe('finishing in the browser', () => {
  it.each(JOURNEY_SIZES)(
    'on %s: upscales a 480p video to 1080p, adds a recording under the upscaled one, and plays the master',
    async (_name, width, height) => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
        viewport: { width, height },
      });
      await signIn(page, admin.email, admin.password);
      // Screenshots at every size and scheme (in the desktop run), then back to this journey's own size.
      const snap = journeyShots(page, width, height);
      const token = `finish${Date.now().toString(36)}`;
      const media = await makeMediaFixtures();
      // Two drafts (the cheapest model and resolution here: the local engine at 480p); the second take is picked.
      const takes: string[] = [];
      for (const take of ['one', 'two'])
        takes.push(await makeFinishedVideo(page, baseUrl, `A lighthouse at dusk ${token} ${take}`, { draft: true }));
      const original = takes[1] ?? '';
      expect(await recordOf(page, original)).toMatchObject({ isDraft: true, settings: { resolution: '480p' } });
      await openSettled(page, `/media?video=${original}`);

      // Upscale: 1080p (2160p offered too), frames kept; 0.1 credits a second for 2 s.
      const upscale = await openFinish(page, 'Finish this take');
      expect(
        await upscale
          .getByRole('radiogroup', { name: 'What to do' })
          .getByRole('radio')
          .evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent)),
      ).toEqual(['Upscale and smooth', 'Add sound']);
      await upscale.getByText('(FFmpeg), not by AI').waitFor();
      await choose(upscale, '1080p');
      expect(await upscale.getByTestId('finish-cost').textContent()).toBe('0.2 credits');
      if (width < 1000) expect(await smallTargets(upscale)).toEqual([]);
      await snap('finish-dialog');
      const upscaled = await startAndFollow(
        page,
        upscale,
        'Upscale · 0.2 credits',
        'Upscaled on this server',
        original,
      );
      expect(await recordOf(page, upscaled)).toMatchObject({
        status: 'completed',
        model: 'local-upscale',
        parentId: original,
        settings: { resolution: '1080p' },
      });

      // Add sound under the upscaled video: the Finish dialog steps aside for the upload dialog and comes back.
      const sound = await openFinish(page);
      await choose(sound, 'Add sound');
      await sound.getByText('Add your recording on this server').waitFor();
      const submit = sound.getByRole('button', { name: 'Add sound · 0.1 credits' });
      expect(await submit.isDisabled()).toBe(true);
      await sound.getByRole('button', { name: 'Choose Recording' }).click();
      const upload = page.locator('.uppy-Dashboard[aria-hidden=false]');
      const picker = upload.locator('input[type=file]').first();
      await picker.waitFor({ state: 'attached' });
      await sound.waitFor({ state: 'hidden' });
      await picker.setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: media.audio });
      await upload.getByRole('button', { name: /^Upload 1 file/ }).click();
      await sound.getByRole('button', { name: '✓ Recording Ready' }).waitFor();
      await sound.getByText('tone.wav').waitFor();
      await animationsDone(page);
      if (width < 1000) expect(await smallTargets(sound)).toEqual([]);
      await snap('finish-dialog-sound');
      const master = await startAndFollow(
        page,
        sound,
        'Add sound · 0.1 credits',
        'Sound added on this server',
        upscaled,
      );
      expect(await recordOf(page, master)).toMatchObject({
        status: 'completed',
        model: 'local-mix',
        parentId: upscaled,
        hasAudio: true,
      });

      // The master plays, and says what made it.
      const player = page.getByRole('region', { name: 'Player' });
      await player.getByText('Sound added on this server').waitFor();
      await player.getByText('· with audio').waitFor();
      const video = player.getByLabel('Video player');
      await video.evaluate(async (element: HTMLVideoElement) => {
        element.muted = true;
        await element.play();
      });
      await page.waitForFunction(() => {
        const element = document.querySelector<HTMLVideoElement>('[aria-label="Player"] video');
        return element !== null && element.readyState >= 2 && element.currentTime > 0.1;
      });
      await video.evaluate((element: HTMLVideoElement) => element.pause());
      // The toasts gone ('Video Ready!' for each new video), so the pictures show the player alone.
      await expect
        .poll(() => page.getByText(/^(Finishing Started|Video Ready!)$/).count(), { timeout: 20_000 })
        .toBe(0);
      await snap('finish-master', player);

      // The dashboard's player links to the media page with the Finish dialog open (upload dialogs cannot open over it).
      await page.goto('/dashboard');
      await page
        .getByRole('button', { name: new RegExp(`${token} one`) })
        .first()
        .click();
      await page.getByRole('dialog').getByRole('link', { name: 'Finish this take' }).click();
      await page.waitForURL((url) => url.pathname === '/media' && url.searchParams.get('video') === takes[0]);
      const fromDashboard = page.getByRole('dialog', { name: 'Finish this video' });
      await fromDashboard.getByRole('radiogroup', { name: 'What to do' }).waitFor();
      // Opened once: the address no longer asks for it.
      await page.waitForURL((url) => !url.searchParams.has('finish'));
      await fromDashboard.getByRole('button', { name: 'Cancel' }).click();
      await fromDashboard.waitFor({ state: 'hidden' });
      assertNoPageErrors();
      await context.close();
    },
    400_000,
  );
});
