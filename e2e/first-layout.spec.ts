import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { makeFinishedVideo, openPage, openSettled, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const PHONE = { width: 390, height: 844 };
const SCREENS = ['/generator', '/dashboard', '/media', '/history', '/credits'];

/** Every face (family, weight, size, style) that text under `root` is drawn in. */
async function facesIn(page: Page, root: string): Promise<string[]> {
  return page.evaluate((root) => {
    const faces = new Set<string>();
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(`${root} *`))) {
      const text = Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.textContent?.trim());
      if (!text && !['INPUT', 'TEXTAREA', 'BUTTON'].includes(element.tagName)) continue;
      const style = getComputedStyle(element);
      faces.add(`${style.fontFamily.split(',')[0]} ${style.fontWeight} ${style.fontSize} ${style.fontStyle}`);
    }
    return [...faces].sort();
  }, root);
}

describe('the first layout', () => {
  it(
    "finds every face the main signed-in screens draw text in already laid out by index.html's splash",
    { timeout: 180_000 },
    async () => {
      const { page, context } = await openPage(browser.get(), baseUrl, { viewport: PHONE });
      await signIn(page, admin.email, admin.password);
      // The screens as they look with a video on them (its card's badges), whatever ran before.
      await makeFinishedVideo(page, baseUrl, 'A lantern on a quiet pier');
      // The splash as the server sends it to someone signed in, drawn in the app's own stylesheet.
      const html = await (await page.request.get('/generator')).text();
      const splash = /<!--loading-->([\s\S]*?)<!--\/loading-->/.exec(html)?.[1];
      expect(splash).toContain('invisible absolute');
      const used = new Set<string>();
      for (const path of SCREENS) {
        await openSettled(page, path);
        for (const face of await facesIn(page, 'body')) used.add(face);
      }
      await page.evaluate((markup) => {
        const holder = document.createElement('div');
        holder.id = 'splash-under-test';
        holder.innerHTML = markup;
        document.body.append(holder);
      }, splash ?? '');
      const warmed = new Set(await facesIn(page, '#splash-under-test'));
      expect(used.size).toBeGreaterThan(5);
      // A face first met in the app's first layout would be looked up there, while the page waits.
      expect([...used].filter((face) => !warmed.has(face))).toEqual([]);
      await context.close();
    },
  );
});
