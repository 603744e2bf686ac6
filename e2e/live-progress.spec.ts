import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const step = (name: string) => console.log(`[live-progress] ${new Date().toISOString()} ${name}`);

/** A slow job queued first, so the next one waits in the queue long enough to be seen there. */
async function queueSlowJob(page: Page) {
  const response = await page.request.post('/api/video-generation', {
    data: { prompt: 'A slow amber and indigo aurora', duration: 10 },
    headers: { origin: baseUrl },
  });
  expect(response.status()).toBe(201);
}

/**
 * Generates from the generator page and follows the new video on the media page: selected at once,
 * its progress live in the player, then playing with the 'Video Ready!' toast, never another video.
 */
async function generateAndFollow(page: Page, token: string, options: { queued: boolean; screenshots: boolean }) {
  // From the media page the app's own link (no page load: the same event stream goes on).
  if (page.url().includes('/media'))
    await page
      .getByRole('link', { name: /Create/ })
      .first()
      .click();
  else await page.goto('/generator');
  await page.getByLabel('Video Description').fill(`A paper lantern drifting over the ${token}`);
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await page.waitForURL(/\/media\?video=[0-9a-f-]{36}$/, { timeout: 10_000 });
  const player = page.getByRole('region', { name: 'Player' });
  const title = player.getByRole('heading', { name: new RegExp(token) });
  await title.waitFor();
  step('await title.waitFor();');
  await player.getByRole('progressbar', { name: 'Generation progress' }).waitFor();
  if (options.queued) {
    await player.getByText(/in the queue/).waitFor({ timeout: 15_000 });
    step('await player.getByText(/in the queue/).w');
    if (options.screenshots) await shoot(page, 'live-media-queued');
  }
  await player
    .getByText(/^Elapsed \d+:\d\d/)
    .waitFor({ timeout: 120_000 })
    .catch(async (error: unknown) => {
      console.log('[live-progress] player said:', await player.innerText());
      throw error;
    });
  step('await player.getByText(/^Elapsed \\d+:\\d\\');
  expect(await title.isVisible()).toBe(true);
  if (options.screenshots) await shoot(page, 'live-media-progress');
  await player.locator('video').waitFor({ timeout: 90_000 });
  step("await player.locator('video').waitFor({ ");
  await page.getByText('Video Ready!', { exact: true }).waitFor();
  step("await page.getByText('Video Ready!', { e");
  // Still the video we started: the player turned into it, it did not jump to another one.
  expect(await title.isVisible()).toBe(true);
  if (options.screenshots) await shoot(page, 'live-media-playing');
}

describe('live progress', () => {
  it(
    'follows each new video from the queue to playing, twice in a row, without polling the list',
    { timeout: 300_000 },
    async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
      const listPolls: number[] = [];
      const streams: string[] = [];
      const balanceReads: number[] = [];
      // The client reads one list and one balance; the older routes that answered parts of them stay unread.
      const retired = [
        '/api/video-generation-jobs',
        '/api/video-generation-jobs/recent',
        '/api/user/status',
        '/api/user/generation-status',
        '/api/credits/balance',
      ];
      const retiredReads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (request.method() === 'GET' && url.pathname === '/api/video-generation') listPolls.push(Date.now());
        if (url.pathname === '/api/user/balance') balanceReads.push(Date.now());
        if (retired.includes(url.pathname)) retiredReads.push(url.pathname);
        if (url.pathname === '/api/events') streams.push(request.url());
      });
      await signIn(page, admin.email, admin.password);
      await queueSlowJob(page);
      const started = Date.now();
      await generateAndFollow(page, `harbour${Date.now().toString(36)}`, { queued: true, screenshots: true });
      await generateAndFollow(page, `meadow${Date.now().toString(36)}`, { queued: false, screenshots: false });
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeGreaterThan(10);
      // At most one stream per page load (later pages change in the app), and the list is read when a
      // page needs it, not every 5 seconds (polling would have made about seconds / 5 requests).
      console.log(
        `[live-progress] ${seconds.toFixed(0)} s, list requests: ${listPolls.length}, balance requests: ${balanceReads.length}, streams: ${streams.length}`,
      );
      expect(retiredReads).toEqual([]);
      expect(streams.length).toBeGreaterThanOrEqual(1);
      expect(streams.length).toBeLessThanOrEqual(2);
      expect(listPolls.length).toBeLessThanOrEqual(2);
      assertNoPageErrors();
      await context.close();
    },
  );

  it('an idle signed-in tab with nothing running makes at most one request a minute', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    // The page's clock is Playwright's: a minute of the page's timers runs in a moment, and every
    // timer the app sets (polling intervals, refetches, retries) fires as it would in that minute.
    await page.clock.install();
    const streamOpened = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
    await signIn(page, admin.email, admin.password);
    // Nothing may be running: the earlier journey's videos are done; wait until the dashboard says so.
    await page.getByText('Video Gallery').first().waitFor();
    // (Never 'networkidle': the event stream stays open by design.)
    await streamOpened;
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    await page.clock.runFor(61_000);
    // A round trip to the page after the minute: a request its timers started has been reported.
    await page.evaluate(() => document.readyState);
    console.log(`[live-progress] idle dashboard, 61 s of page time: ${JSON.stringify(requests)}`);
    expect(requests.length).toBeLessThanOrEqual(1);
    assertNoPageErrors();
    await context.close();
  });
});
