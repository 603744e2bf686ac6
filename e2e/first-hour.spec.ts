import { describe, expect, inject, it } from 'vitest';
import { PREVIEW_ONLY_NOTE } from '../src/shared/installation';
import { registerAccount } from './support/app-server';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

// The first hour on a fresh installation with no keys (issue 45): before anything is spent, the
// landing page and the generator say that this server makes previews, not AI video.
const baseUrl = inject('baseUrl');
const browser = useBrowser();

const SIZES = [
  { size: 'phone', viewport: { width: 390, height: 844 } },
  { size: 'desktop', viewport: { width: 1440, height: 900 } },
] as const;

describe('a keyless installation is honest about what it makes', () => {
  for (const { size, viewport } of SIZES) {
    it(`says on the landing page, painted before any script, that videos are previews (${size})`, async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { viewport });
      // The page as the server sends it: the note is in the HTML, not added by a request later.
      const html = await (await page.request.get('/')).text();
      expect(html).toContain(PREVIEW_ONLY_NOTE);
      await page.goto('/');
      const note = page.locator('[data-preview-note]');
      await note.waitFor();
      expect(await note.textContent()).toBe(PREVIEW_ONLY_NOTE);
      // On the first screen, above the sign-up button's fold on a phone.
      const box = await note.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(viewport.height * 1.5);
      if (size === 'phone') await shoot(page, 'first-hour-landing', note);
      // This server takes no payments: the pricing says who to ask, with no dollar price in sight.
      expect(html).toContain('data-payments="off"');
      const pricing = page.locator('section[aria-labelledby="pricing-title"]');
      await page.getByTestId('pricing-without-payments').waitFor({ state: 'visible' });
      expect(await pricing.innerText()).not.toContain('$');
      if (size === 'phone') await shoot(page, 'first-hour-pricing', pricing);
      assertNoPageErrors();
      await context.close();
    });
  }

  it('says so on the generator before the first Generate, and names who connects a model', async () => {
    const email = `first-hour-${Date.now().toString(36)}@example.com`;
    await registerAccount(baseUrl, { email, password: 'first-hour-password', firstName: 'Iris' });
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 390, height: 844 },
    });
    await signIn(page, email, 'first-hour-password');
    await page.goto('/generator');
    // On a phone the notices fold into one line, which says it first; opened, the notice says the rest.
    const folded = page.getByRole('button', { name: /Previews only/ });
    await folded.waitFor();
    await folded.click();
    const notice = page.getByRole('region', { name: 'Previews only on this server' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(PREVIEW_ONLY_NOTE);
    expect(await notice.textContent()).toContain('The person who runs this server can connect a real model');
    // AI Enhance is named for what it is here: writing rules, not a model.
    expect(await page.getByText('On this server, writing rules (not an AI model)').count()).toBe(1);
    await shoot(page, 'first-hour-generator', notice);
    assertNoPageErrors();
    await context.close();
  });

  it('keeps the next step one tap away on a phone: describe it, then Generate now from anywhere', async () => {
    const email = `phone-generate-${Date.now().toString(36)}@example.com`;
    await registerAccount(baseUrl, { email, password: 'phone-generate-password', firstName: 'Pia' });
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
      viewport: { width: 390, height: 844 },
    });
    await signIn(page, email, 'phone-generate-password');
    await page.goto('/generator');
    // Generate is screens below; the bar above the navigation says what comes first.
    const bar = page.getByTestId('phone-generate-bar');
    await bar.getByText('No description yet').waitFor();
    await shoot(page, 'phone-generate-bar-describe', bar);
    await page.setViewportSize({ width: 390, height: 844 });
    await bar.getByRole('button', { name: 'Describe it' }).click();
    const description = page.getByLabel('Video Description');
    await expect.poll(() => description.evaluate((box) => box === document.activeElement)).toBe(true);
    await description.fill('A paper boat drifting down a rainy street');
    // Scrolled to the top again, the bar offers Generate itself, with the price.
    await page.evaluate(() => window.scrollTo(0, 0));
    const generateNow = bar.getByRole('button', { name: 'Generate now' });
    await generateNow.waitFor();
    expect(await bar.textContent()).toContain('1 credit');
    const box = await generateNow.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await shoot(page, 'phone-generate-bar-ready', bar);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/video-generation') && r.method() === 'POST');
    await bar.getByRole('button', { name: 'Generate now' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ description: 'A paper boat drifting down a rainy street' });
    await page.waitForURL('**/media?video=*');
    assertNoPageErrors();
    await context.close();
  });
});
