import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { makeFinishedVideo, openPage, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Small {
  what: string;
  width: number;
  height: number;
}

/**
 * Every visible target on the page smaller than the least size: 24 x 24 CSS px on a desktop (WCAG 2.2,
 * 2.5.8 Target Size (Minimum)), and 44 px tall on a phone (a thumb's target, as Apple's and WCAG
 * 2.5.5's 44 px), less a link inside a sentence (the criterion's "inline" exception) and a checkbox or
 * radio whose label, pressed as well, is that large. A button stretched over its card by an absolute
 * ::after is measured as the card. Targets hidden from the eye (a native radio
 * under its chip, visually-hidden skip links until focused) are not targets.
 */
async function smallTargets(page: Page, least: { width: number; height: number }): Promise<Small[]> {
  return page.evaluate((least) => {
    const selector =
      'a[href], button, [role="button"], [role="switch"], [role="tab"], [role="link"], [role="menuitem"], select, summary, input:not([type="hidden"]), textarea';
    const found: { what: string; width: number; height: number }[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const style = getComputedStyle(element);
      // A button whose hit area is stretched over its card by an absolute ::after (the video cards'
      // prompt) is pressed anywhere on that card: the card is the target.
      const after = getComputedStyle(element, '::after');
      const stretched = after.position === 'absolute' && after.content !== 'none' && element.offsetParent;
      const rect = (stretched ? (element.offsetParent as HTMLElement) : element).getBoundingClientRect();
      if (rect.width <= 2 || rect.height <= 2) continue; // visually hidden
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      if (element.closest('[aria-hidden="true"], [inert]')) continue;
      if (element.tagName === 'A' && style.display === 'inline') continue; // a link in a sentence
      if (rect.width >= least.width && rect.height >= least.height) continue;
      // A checkbox or radio is pressed through its label too: the two together are the target.
      const labels = element instanceof HTMLInputElement ? Array.from(element.labels ?? []) : [];
      if (
        labels.some((label) => {
          const r = label.getBoundingClientRect();
          return r.height >= least.height && r.width >= least.width;
        })
      )
        continue;
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
      found.push({
        what: `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''} "${name}"`,
        width: Math.round(rect.width),
        height: Math.round(rect.height),
      });
    }
    return found;
  }, least);
}

const SIGNED_IN_SCREENS = [
  '/generator',
  '/dashboard',
  '/media',
  '/history',
  '/storyboards',
  '/characters',
  '/credits',
  '/subscribe',
  '/account',
  '/admin',
  '/admin/settings',
];
const SIGNED_OUT_SCREENS = ['/', '/login', '/register', '/forgot-password'];

async function check(page: Page, path: string, found: Record<string, Small[]>) {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await page.locator('h1').first().waitFor();
    // Each screen's data has arrived when no 'Loading' status is left on it.
    await page.waitForFunction(
      () => !Array.from(document.querySelectorAll('[role="status"]')).some((s) => /Loading/.test(s.textContent ?? '')),
    );
    const small = await smallTargets(page, size === 'phone' ? { width: 24, height: 44 } : { width: 24, height: 24 });
    if (small.length > 0) found[`${path} (${size})`] = small;
  }
}

describe('tap targets', () => {
  it(
    'every target on the main screens is at least 44 px tall on a phone and 24 x 24 px on a desktop, signed out and as an administrator',
    { timeout: 180_000 },
    async () => {
      const found: Record<string, Small[]> = {};
      const visitor = await openPage(browser.get(), baseUrl);
      for (const path of SIGNED_OUT_SCREENS) await check(visitor.page, path, found);
      await visitor.context.close();

      const { page, context } = await openPage(browser.get(), baseUrl);
      await signIn(page, admin.email, admin.password);
      // The dashboard and the media page are measured with a finished video on them, whatever ran before.
      await makeFinishedVideo(page, baseUrl, 'A paper kite over the dunes');
      for (const path of SIGNED_IN_SCREENS) await check(page, path, found);
      // A storyboard's editor, with one shot.
      const board = await page.request.post('/api/storyboards', {
        headers: { origin: baseUrl },
        data: { shots: [{ id: crypto.randomUUID(), description: 'A paper kite', model: 'local', duration: 2 }] },
      });
      expect(board.status()).toBe(201);
      await check(page, `/storyboards/${((await board.json()) as { id: string }).id}`, found);
      expect(found).toEqual({});

      // The primary actions on a phone are 44 px tall: the bottom navigation and Generate.
      await page.setViewportSize(PHONE);
      await page.goto('/generator');
      await page.getByRole('button', { name: 'Generate Video' }).waitFor();
      const primary = [
        ...(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all()),
        page.getByRole('button', { name: 'Generate Video' }),
      ];
      expect(primary.length).toBeGreaterThan(5);
      for (const target of primary) {
        const box = await target.boundingBox();
        expect(box?.height, (await target.textContent()) ?? undefined).toBeGreaterThanOrEqual(44);
      }
      await context.close();
    },
  );
});
