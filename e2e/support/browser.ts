import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { readEnv } from '../../src/server/config';

// Flags this machine needs: no sandbox as root, and no background traffic to a network we do not have.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Which Debian Chromium a spec drives (never a downloaded browser). The headless shell by default: the
 * same Blink and V8 without the full browser's interface layer, which is what Playwright itself runs
 * headless. Measured here: 0.45x the full browser's CPU on ten plain pages, 0.70x over the journeys.
 * The full browser where a journey needs what only it has: notifications and their permission.
 * CHROMIUM_PATH, when set, names one browser for both.
 */
export type BrowserKind = 'shell' | 'full';

const DEBIAN_CHROMIUM: Record<BrowserKind, string> = {
  shell: '/usr/bin/chromium-headless-shell',
  full: '/usr/bin/chromium',
};

/** Launches that Chromium headless; Playwright gives it a fresh, temporary profile. */
export function launchBrowser(kind: BrowserKind = 'shell'): Promise<Browser> {
  return chromium.launch({
    executablePath: readEnv().CHROMIUM_PATH || DEBIAN_CHROMIUM[kind],
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

/** One browser for a spec file: launched before its tests, closed after them. */
export function useBrowser(kind: BrowserKind = 'shell'): { get(): Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(kind);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get() {
      if (!browser) throw new Error('The browser is not launched yet: use it inside a test or hook.');
      return browser;
    },
  };
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** A touch screen (a phone): taps work, and pointer-only hover is not there. */
  hasTouch?: boolean;
  /**
   * A first visit: the onboarding tours and the install banner may appear. Otherwise they count as
   * seen (local storage), so they never cover what a journey clicks.
   */
  fresh?: boolean;
  /**
   * The app's service worker: blocked unless a journey is about it, because Playwright's request
   * routing does not see requests a service worker makes.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A page in its own context (own cookies); uncaught page errors fail the test at `assertNoPageErrors`. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; assertNoPageErrors: () => void }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    hasTouch: options.hasTouch ?? false,
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  if (!options.fresh) {
    await context.addInitScript(() => {
      window.localStorage.setItem('reelsmith:completed-tours', JSON.stringify(['first-time', 'generator']));
      window.localStorage.setItem('reelsmith:install-dismissed', 'true');
    });
  }
  // Counts the page's fetches in flight, for openSettled (the live event stream is an EventSource, not counted).
  await context.addInitScript(() => {
    const state = window as unknown as { fetchesInFlight: number };
    state.fetchesInFlight = 0;
    const original = window.fetch.bind(window);
    window.fetch = (...args: Parameters<typeof fetch>) => {
      state.fetchesInFlight += 1;
      return original(...args).finally(() => {
        state.fetchesInFlight -= 1;
      });
    };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    assertNoPageErrors: () => {
      if (errors.length > 0) throw new Error(`uncaught page errors:\n${errors.join('\n')}`);
    },
  };
}

/**
 * An axe builder for what the page shows now, run as one `axe.run` in the page (the package's
 * "legacy mode"). Its default runs axe in each frame and finishes in a new blank page, injecting axe
 * twice more: twice the time for the same rules on our one-frame pages. This mode leaves
 * cross-origin frames out, so a page that has one fails here rather than going unchecked.
 */
export function axeOn(page: Page): AxeBuilder {
  const origin = new URL(page.url()).origin;
  const foreign = page
    .frames()
    .map((frame) => frame.url())
    .filter((url) => url.startsWith('http') && new URL(url).origin !== origin);
  expect(foreign, 'cross-origin frames, which this axe run would leave out').toEqual([]);
  return new AxeBuilder({ page }).setLegacyMode(true);
}

/** Signs in through the login form; lands on the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await page.waitForURL('**/dashboard');
}

const SHOTS = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/**
 * Whether journeys write their screenshots: only when asked (`E2E_SCREENSHOTS=1`, as
 * `npm run test:e2e:shots` sets), for a person to look at. They assert nothing, and the four shots of
 * each of the 68 places cost about a minute of `npm test`, whose copies nobody opens.
 */
const SHOTS_WANTED = readEnv().E2E_SCREENSHOTS === '1';

/** Writes test-results/screenshots/{file}.png when screenshots are wanted; otherwise does nothing. */
export async function saveShot(page: Page, file: string, options: { animations?: 'disabled' } = {}): Promise<void> {
  if (!SHOTS_WANTED) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${file}.png`), ...options });
}

/**
 * Screenshots the page at phone and desktop sizes, in light and dark, into
 * test-results/screenshots/{name}-{size}.png (light) and {name}-{size}-dark.png. With `focus`, that
 * element is scrolled into view at each size (a resize reflows the page and loses the scroll). Either
 * way (shots wanted or not) the page is left in light at 1280 x 800, so a journey walks on the same.
 */
export async function shoot(page: Page, name: string, focus?: Locator): Promise<void> {
  if (!SHOTS_WANTED) {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    return;
  }
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1440, height: 900 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await nextFrames(page);
      // Centred, so a sticky header never covers it.
      await focus?.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      // Transitions finished at once: the shot shows where the resize leaves the page.
      await saveShot(page, `${name}-${size}${scheme === 'dark' ? '-dark' : ''}`, { animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The sizes a journey walks, as it.each's cases: a desktop (whose run takes the screenshots) and a phone. */
export const JOURNEY_SIZES: [name: string, width: number, height: number][] = [
  ['a desktop', 1440, 900],
  ['a phone', 390, 844],
];

/**
 * Screenshots for a journey walked at `width` x `height`: the desktop run's cover both sizes (shoot
 * takes each), the phone run only walks; either way the page goes back to the journey's own size.
 */
export function journeyShots(page: Page, width: number, height: number) {
  return async (name: string, focus?: Locator): Promise<void> => {
    if (width >= 1000) await shoot(page, name, focus);
    await page.setViewportSize({ width, height });
  };
}

/** The page's fonts are loaded and two frames have been drawn since (a resize or render has laid out). */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * Every CSS animation and transition running on the page has finished (a dialog or menu opened). One
 * cancelled meanwhile (its element re-rendered or removed, or another transition replacing it) rejects
 * its `finished` with an AbortError: it is over too, so it counts as done.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // Content the browser skips drawing until it nears the viewport (content-visibility: auto)
        // holds its animations still until then: they cannot finish, and nothing of them shows.
        .filter((animation) => {
          const target = animation.effect instanceof KeyframeEffect ? animation.effect.target : null;
          return !target || target.checkVisibility({ contentVisibilityAuto: true });
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Opens `url` and waits until the page has settled: its heading is drawn, and none of its API
 * calls is in flight (counted in the page by `openPage`'s wrapper of `fetch`) for two drawn frames in
 * a row, so the queries have answered and what they reveal has rendered.
 */
export async function openSettled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('h1').first().waitFor();
  await page.waitForFunction(() => {
    const state = window as unknown as { fetchesInFlight?: number; quietFrames?: number };
    state.quietFrames = (state.fetchesInFlight ?? 0) === 0 ? (state.quietFrames ?? 0) + 1 : 0;
    return state.quietFrames >= 2 && document.readyState === 'complete';
  });
  await nextFrames(page);
}

/** Uploads a file through the upload dialog that `button` opens, and waits for `ready` on the page. */
export async function uploadThrough(page: Page, button: string, file: string, ready: string): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  const picker = page.locator('.uppy-Dashboard input[type=file]').first();
  await picker.waitFor({ state: 'attached' });
  await picker.setInputFiles(file);
  const shown = page.getByText(ready).first().waitFor();
  await page.getByRole('button', { name: /^Upload 1 file/ }).click();
  await shown;
}

/**
 * Starts recording every text the page adds from now on (a MutationObserver on the body), and answers
 * a function that reads what was seen: for a message that may come and go between two looks (a toast
 * another message replaces).
 */
export async function recordAddedTexts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { addedTexts: string[] }).addedTexts = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        // A text React rewrote in place, or nodes it added.
        if (record.type === 'characterData' && record.target.textContent) seen.push(record.target.textContent);
        for (const node of record.addedNodes) if (node.textContent) seen.push(node.textContent);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { addedTexts: string[] }).addedTexts);
}

/** Uploads an image through the generator's Choose Image dialog (Uppy) and waits until it is ready. */
export async function uploadImage(page: Page, file: string): Promise<void> {
  await page.getByRole('button', { name: 'Choose Image' }).click();
  const picker = page.locator('.uppy-Dashboard input[type=file]').first();
  await picker.waitFor({ state: 'attached' });
  await picker.setInputFiles(file);
  await page.getByRole('button', { name: /^Upload 1 file/ }).click();
  await page.getByText('✓ Image Ready').waitFor();
}

/**
 * Makes a short video with the local engine as the signed-in page's user (2 s, unless `fields` of
 * the request say otherwise), and waits until it is finished (the list says 'completed'). Answers its id.
 */
export async function makeFinishedVideo(
  page: Page,
  baseUrl: string,
  prompt: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const made = await page.request.post('/api/video-generation', {
    headers: { origin: baseUrl },
    data: { prompt, model: 'local', duration: 2, ...fields },
  });
  expect(made.status()).toBe(201);
  const id = ((await made.json()) as { id: string }).id;
  await expect
    .poll(
      async () => {
        const list = (await (await page.request.get('/api/video-generation')).json()) as {
          id: string;
          status: string;
        }[];
        return list.find((record) => record.id === id)?.status;
      },
      { timeout: 120_000, interval: 500 },
    )
    .toBe('completed');
  return id;
}
