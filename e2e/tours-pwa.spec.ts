import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { nextFrames, openPage, shoot, signIn, useBrowser } from './support/browser';
import { registerAccount } from './support/app-server';

const baseUrl = inject('baseUrl');
const browser = useBrowser();
const PASSWORD = 'tour-password-1';

async function newAccount(name: string): Promise<string> {
  const email = `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
  await registerAccount(baseUrl, { email, password: PASSWORD, firstName: name });
  return email;
}

const popover = (page: Page) => page.locator('.driver-popover');
const popoverTitle = (page: Page) => page.locator('.driver-popover-title');
const completedTours = (page: Page) => page.evaluate(() => window.localStorage.getItem('reelsmith:completed-tours'));
/** driver.js has finished fading the step in and moving it: drawn whole, and still for a frame. */
const stepAtRest = (page: Page) =>
  page.waitForFunction(() => {
    const shown = document.querySelector('.driver-popover');
    const stage = document.querySelector('.driver-overlay path');
    const where = `${JSON.stringify(shown?.getBoundingClientRect())} ${stage?.getAttribute('d') ?? ''}`;
    const state = window as unknown as { lastStepPlace?: string };
    const still = state.lastStepPlace === where;
    state.lastStepPlace = where;
    return shown !== null && getComputedStyle(shown).opacity === '1' && still;
  });
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

describe('onboarding tours', () => {
  it('runs the first-time tour 2 s after the first sign-in, once, keyboard operable with focus kept in the step', async () => {
    const email = await newAccount('Fay');
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { fresh: true });
    await signIn(page, email, PASSWORD);
    const signedInAt = Date.now();
    await popoverTitle(page).filter({ hasText: 'Welcome to Reelsmith' }).waitFor({ timeout: 6000 });
    expect(Date.now() - signedInAt).toBeGreaterThanOrEqual(1500);
    expect(await page.locator('.driver-popover-progress-text').textContent()).toBe('1 of 5');
    // This server has only the preview engine: the welcome says so before anything is spent.
    expect(await page.locator('.driver-popover-description').textContent()).toContain(
      'No AI video model is connected to this server yet, so videos are previews for now.',
    );
    expect(await page.getByRole('dialog', { name: 'Welcome to Reelsmith' }).count()).toBe(1);
    expect(await focusedText(page)).toBe('Next');

    // The arrow keys step (once the step has settled); Tab never leaves the step.
    await stepAtRest(page);
    await page.keyboard.press('ArrowRight');
    await popoverTitle(page).filter({ hasText: 'Credits pay for videos' }).waitFor();
    expect(await page.locator('.driver-active-element').getAttribute('data-tour')).toBe('nav-credits');
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.driver-popover')))).toBe(true);
    }
    await page.getByRole('button', { name: 'Back' }).click();
    await popoverTitle(page).filter({ hasText: 'Welcome to Reelsmith' }).waitFor();
    await page.getByRole('button', { name: 'Skip Tour' }).click();
    await popover(page).waitFor({ state: 'detached' });
    expect(JSON.parse((await completedTours(page)) ?? '[]')).toContain('first-time');
    // Focus goes back to the page, at its heading.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), { timeout: 10_000 }).toBe('H1');

    // Never again: not on a reload, not after signing out and in (the page clock runs past the
    // tour's 2 s at once).
    await page.clock.install();
    await page.reload();
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    await page.clock.runFor(3000);
    expect(await popover(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    await page.clock.runFor(3000);
    expect(await popover(page).count()).toBe(0);
    assertNoPageErrors();
    await context.close();
  });

  it('records a tour closed the instant it appears (Escape, or the close cross on a phone): it stays closed after a reload', async () => {
    for (const way of ['Escape', 'close cross'] as const) {
      const email = await newAccount(way === 'Escape' ? 'Hal' : 'Ida');
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
        fresh: true,
        viewport: { width: 390, height: 844 },
      });
      await signIn(page, email, PASSWORD);
      // At 0 ms: as soon as the popover is in the page, before driver.js's 400 ms highlight animation ends.
      await popover(page).waitFor({ state: 'attached', timeout: 6000 });
      if (way === 'Escape') await page.keyboard.press('Escape');
      else await page.getByRole('button', { name: 'Close tour' }).click();
      await popover(page).waitFor({ state: 'detached' });
      expect(JSON.parse((await completedTours(page)) ?? '[]')).toContain('first-time');

      // The page clock stands still until told: past the tour's 2 s without waiting them.
      await page.clock.install();
      await page.reload();
      await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
      await page.clock.runFor(3000);
      expect(await popover(page).count()).toBe(0);
      expect(JSON.parse((await completedTours(page)) ?? '[]')).toContain('first-time');
      assertNoPageErrors();
      await context.close();

      // Another device (a browser with nothing stored): the account remembers the tour, so it does not start.
      const other = await openPage(browser.get(), baseUrl, { fresh: true, viewport: { width: 390, height: 844 } });
      await other.page.clock.install();
      await signIn(other.page, email, PASSWORD);
      await other.page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
      await other.page.clock.runFor(3000);
      expect(await popover(other.page).count()).toBe(0);
      expect(await completedTours(other.page)).toBeNull();
      other.assertNoPageErrors();
      await other.context.close();
    }
  });

  it('runs the generator tour 1 s after the generator opens: forward, back, Finish; then only from Show Me How This Works', async () => {
    const email = await newAccount('Gus');
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { fresh: true });
    await context.addInitScript(() => {
      if (!window.localStorage.getItem('reelsmith:completed-tours')) {
        window.localStorage.setItem('reelsmith:completed-tours', JSON.stringify(['first-time']));
      }
    });
    await signIn(page, email, PASSWORD);
    await page.goto('/generator');
    await popoverTitle(page).filter({ hasText: 'Welcome to Create Video' }).waitFor({ timeout: 5000 });
    expect(await page.getByRole('button', { name: 'Back' }).isVisible()).toBe(false);
    await shoot(page, 'tour-generator-welcome');

    const expected = [
      ['Start from an image', 'upload-image', '2 of 7'],
      ['Or from a video', 'upload-video', '3 of 7'],
      ['Describe your video', 'description', '4 of 7'],
      ['Advanced settings in JSON', 'advanced-json', '5 of 7'],
      ['Audio is detected for you', 'audio', '6 of 7'],
      ['Generate', 'generate', '7 of 7'],
    ] as const;
    for (const [index, [title, target, progress]] of expected.entries()) {
      await page.getByRole('button', { name: 'Next' }).click();
      await popoverTitle(page).filter({ hasText: title }).waitFor();
      expect(await page.locator('.driver-active-element').getAttribute('data-tour')).toBe(target);
      expect(await page.locator('.driver-popover-progress-text').textContent()).toBe(progress);
      // No Gemini key and no model of the operator's: the image analysis is named for what it is.
      if (index === 0) {
        expect(await page.locator('.driver-popover-description').textContent()).toContain(
          'This server measures its colours, light and objects',
        );
      }
      if (index === 2) {
        await shoot(page, 'tour-generator-description');
        await page.getByRole('button', { name: 'Back' }).click();
        await popoverTitle(page).filter({ hasText: 'Or from a video' }).waitFor();
        await page.getByRole('button', { name: 'Next' }).click();
        await popoverTitle(page).filter({ hasText: title }).waitFor();
      }
    }
    expect(await page.getByRole('button', { name: 'Skip Tour' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Finish' }).click();
    await popover(page).waitFor({ state: 'detached' });
    expect(JSON.parse((await completedTours(page)) ?? '[]')).toEqual(['first-time', 'generator']);

    await page.clock.install();
    await page.reload();
    await page.getByRole('heading', { name: 'Create Video' }).waitFor();
    await page.clock.runFor(2500);
    expect(await popover(page).count()).toBe(0);

    // The credits card replays it; Escape ends it and focus returns to the button.
    const replay = page.getByRole('button', { name: 'Show Me How This Works' });
    await replay.click();
    await popoverTitle(page).filter({ hasText: 'Welcome to Create Video' }).waitFor();
    await page.keyboard.press('Escape');
    await popover(page).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Show Me How This Works'));
    assertNoPageErrors();
    await context.close();
  });
});

describe('installable app', () => {
  it('shows the install banner after 30 s, opens the steps when the browser offers no prompt, and remembers a dismissal', async () => {
    const email = await newAccount('Ivy');
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      fresh: true,
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript(() => {
      window.localStorage.setItem('reelsmith:completed-tours', JSON.stringify(['first-time', 'generator']));
    });
    await page.clock.install();
    // The banner's chunk loads after sign-in; its 30 s start when it mounts, in the same commit as
    // the presence call of the component that holds it (the page clock runs on meanwhile).
    let mounted = page.waitForRequest('**/api/notifications/presence');
    await signIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    await mounted;
    const banner = page.getByRole('region', { name: 'Install Reelsmith' });
    await page.clock.fastForward(20_000);
    expect(await banner.count()).toBe(0);
    await page.clock.fastForward(11_000);
    await banner.waitFor();
    await shoot(page, 'install-banner');

    // Headless Chromium offers no install prompt: Install opens the platform steps.
    const install = banner.getByRole('button', { name: 'Install' });
    await install.click();
    const help = page.getByRole('dialog', { name: 'Add Reelsmith to your Home Screen' });
    await help.waitFor();
    for (const platform of ['iPhone and iPad (Safari)', 'Android (Chrome)', 'Desktop browsers']) {
      await help.getByRole('heading', { name: platform }).waitFor();
    }
    await shoot(page, 'install-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    // Radix gives focus back a task after the dialog unmounts.
    await expect.poll(() => install.evaluate((button) => button === document.activeElement)).toBe(true);

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.localStorage.getItem('reelsmith:install-dismissed'))).toBe('true');
    mounted = page.waitForRequest('**/api/notifications/presence');
    await page.reload();
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    await mounted;
    await page.clock.fastForward(31_000);
    await nextFrames(page);
    expect(await banner.count()).toBe(0);

    // The generator's own button stays, and opens the same steps.
    await page.goto('/generator');
    await page.getByRole('button', { name: 'Add Reelsmith to Home Screen' }).click();
    await help.waitFor();
    assertNoPageErrors();
    await context.close();
  });

  it('serves a valid web manifest with its icons', async () => {
    const response = await fetch(`${baseUrl}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest.name).toContain('Reelsmith');
    expect(manifest.short_name).toBe('Reelsmith');
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = manifest.icons.map((icon) => `${icon.sizes}:${icon.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, baseUrl));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await image.arrayBuffer());
      // IHDR width and height, big-endian, at bytes 16 and 20.
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    const html = await (await fetch(baseUrl)).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    const worker = await fetch(`${baseUrl}/sw.js`);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });

  it('tells the server the new push subscription when the browser replaces it, and forgets the old one', async () => {
    const email = await newAccount('Ode');
    const { page, context } = await openPage(browser.get(), baseUrl, { serviceWorkers: 'allow' });
    await signIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const keys = () =>
      worker.evaluate(async () => {
        const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
        const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
        const b64url = (bytes: Uint8Array) =>
          btoa(String.fromCharCode(...bytes))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
        return { p256dh: b64url(raw), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) };
      });
    const old = { endpoint: 'https://fcm.googleapis.com/fcm/send/e2e-old', keys: await keys() };
    const added = await page.request.post('/api/notifications/push-subscriptions', {
      data: old,
      headers: { origin: baseUrl },
    });
    expect(added.status()).toBe(201);
    const renewed = { endpoint: 'https://fcm.googleapis.com/fcm/send/e2e-new', keys: await keys() };

    // Firefox's event (Chromium has none): the old subscription and the one that replaces it.
    await worker.evaluate(
      async ({ old, renewed }) => {
        const change = new Event('pushsubscriptionchange');
        let handled: Promise<unknown> = Promise.resolve();
        Object.defineProperty(change, 'waitUntil', { value: (promise: Promise<unknown>) => (handled = promise) });
        Object.assign(change, {
          oldSubscription: { endpoint: old.endpoint, options: {} },
          newSubscription: { endpoint: renewed.endpoint, toJSON: () => renewed },
        });
        self.dispatchEvent(change);
        await handled;
      },
      { old, renewed },
    );
    const forget = async (endpoint: string) => {
      const response = await page.request.delete('/api/notifications/push-subscriptions', {
        data: { endpoint },
        headers: { origin: baseUrl },
      });
      return ((await response.json()) as { push: { subscriptions: number } }).push.subscriptions;
    };
    // The old one is gone already (forgetting it changes nothing); the new one is the one kept.
    expect(await forget(old.endpoint)).toBe(1);
    expect(await forget(renewed.endpoint)).toBe(0);
    await context.close();
  });

  it('installs a service worker that controls a reloaded page and serves the shell offline, never API answers', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { serviceWorkers: 'allow' });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseUrl}/sw.js`);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((url) => url.startsWith('/assets/') && url.endsWith('.js'))).toBe(true);
    expect(cached.filter((url) => url.startsWith('/api/'))).toEqual([]);

    await context.setOffline(true);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await context.setOffline(false);
    assertNoPageErrors();
    await context.close();
  });
});
