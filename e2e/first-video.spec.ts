import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { AdminUser } from '../src/shared/admin';
import { openPage, shoot, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

const RUNS = [
  { size: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, scheme: 'light' },
  { size: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, scheme: 'dark' },
  { size: 'desktop', viewport: { width: 1440, height: 900 }, hasTouch: false, scheme: 'light' },
  { size: 'desktop', viewport: { width: 1440, height: 900 }, hasTouch: false, scheme: 'dark' },
] as const;

async function balanceOf(page: Page): Promise<number> {
  const response = await page.request.get('/api/credits/balance');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { credits: number }).credits;
}

/**
 * The journey is about the sign-up credit being 1: where this server grants another amount
 * (SIGNUP_CREDITS), the administrator sets the new account's balance to 1 through the admin API.
 */
async function makeBalanceOne(page: Page, email: string): Promise<void> {
  if ((await balanceOf(page)) === 1) return;
  const context = await browser.get().newContext({ baseURL: baseUrl });
  const signedIn = await context.request.post('/api/auth/login', {
    data: { email: admin.email, password: admin.password },
    headers: { origin: baseUrl },
  });
  expect(signedIn.status()).toBe(200);
  const list = await context.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
  const [user] = (await list.json()) as (AdminUser & { id: string })[];
  if (!user || user.email !== email) throw new Error(`the administrator does not find ${email}`);
  const { firstName, lastName, availableCredits, totalCreditsUsed, subscriptionStatus } = user;
  const updated = await context.request.patch(`/api/admin/users/${user.id}`, {
    data: {
      email,
      firstName,
      lastName,
      totalCreditsUsed,
      subscriptionStatus,
      availableCredits: 1,
      original: { availableCredits },
    },
    headers: { origin: baseUrl },
  });
  expect(updated.status()).toBe(200);
  await context.close();
  expect(await balanceOf(page)).toBe(1);
}

describe('a newcomer makes a first video with the sign-up credit and AI Enhance on', () => {
  for (const run of RUNS) {
    it(`makes the video without the add-ons in one step, then shows where more credits come from (${run.size}, ${run.scheme})`, async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, {
        viewport: run.viewport,
        colorScheme: run.scheme,
        hasTouch: run.hasTouch,
      });
      // A finger on the phone, a mouse on the desktop.
      const press = (target: Locator) => (run.hasTouch ? target.tap() : target.click());
      // One run takes the screenshots: `shoot` covers both widths in light and dark.
      const shooting = run.size === 'phone' && run.scheme === 'light';
      const snap = async (name: string, focus?: Locator) => {
        if (!shooting) return;
        await shoot(page, name, focus);
        await page.setViewportSize(run.viewport);
        await page.emulateMedia({ colorScheme: run.scheme });
      };

      const email = `first-${run.size}-${run.scheme}-${Date.now()}@example.com`;
      const registered = await page.request.post('/api/auth/register', {
        data: { email, password: 'first-video-password', firstName: 'Nell' },
        headers: { origin: baseUrl },
      });
      expect(registered.status()).toBe(201);
      await makeBalanceOne(page, email);

      await page.goto('/generator');
      const token = `pond${Date.now().toString(36)}`;
      const own = `A paper boat drifting on the ${token} at dusk`;
      const description = page.getByLabel('Video Description');
      await description.fill(own);
      // The add-on's share is said beside the switch before it is touched.
      const enhanceRow = page.locator('label[for="ai-enhance"]');
      await enhanceRow.getByText('+0.5 credits').waitFor();
      const generate = page.getByRole('button', { name: 'Generate Video' });
      await expect.poll(() => generate.isEnabled()).toBe(true);

      await press(page.getByRole('switch', { name: 'AI Enhance' }));
      const panel = page.getByRole('region', { name: 'Enhanced prompt' });
      // The enhanced prompt starts with the user's words and is what Generate would send.
      await panel.getByText(new RegExp(`^A paper boat drifting on the ${token}`)).waitFor();
      const shortfall = page.getByRole('alert').filter({ hasText: 'Insufficient credits' });
      await shortfall.getByText('Insufficient credits. You need 1.5 but have 1.').waitFor();
      // Payments are not configured on this server: who to ask, right there.
      await shortfall.getByText('To get credits, ask the person who runs this server.').waitFor();
      expect(await generate.isDisabled()).toBe(true);
      const withoutAddOns = page.getByRole('button', { name: 'Generate without the add-ons (1 credit)' });
      await withoutAddOns.waitFor();
      await snap('first-video-addon-share', enhanceRow);
      await snap('first-video-without-addons', withoutAddOns);

      // 'Use Enhanced' puts the AI's words in the box; the price stays over the balance, and the
      // same one step still makes the video, from the words the user wrote (said under the button).
      const enhanced = await panel.getByText(new RegExp(`^A paper boat drifting on the ${token}`)).innerText();
      await press(panel.getByRole('button', { name: 'Use Enhanced' }));
      expect(await description.inputValue()).toBe(enhanced);
      await shortfall.getByText('Insufficient credits. You need 1.5 but have 1.').waitFor();
      expect(await generate.isDisabled()).toBe(true);
      const ownWords = page.getByText(`Made from your own description: “${own}”`);
      await ownWords.waitFor();
      await withoutAddOns.waitFor();
      await snap('first-video-use-enhanced', ownWords);

      const created = page.waitForResponse(
        (response) => response.url().endsWith('/api/video-generation') && response.request().method() === 'POST',
      );
      await press(withoutAddOns);
      const response = await created;
      expect(response.status()).toBe(201);
      const record = (await response.json()) as { id: string; prompt: string; creditsUsed: number };
      // Made from the user's own words, at the price without the add-on.
      expect(record.prompt).toBe(own);
      expect(record.creditsUsed).toBe(1);
      await page.getByText('Video Generation Started', { exact: true }).waitFor();
      await page.waitForURL(`**/media?video=${encodeURIComponent(record.id)}`, { timeout: 15_000 });
      await page
        .getByRole('region', { name: 'Player' })
        .getByRole('heading', { name: new RegExp(token) })
        .waitFor();
      expect(await balanceOf(page)).toBe(0);
      await snap('first-video-started');

      // At 0 credits the generator says at once where more come from, beside the price.
      await page.goto('/generator');
      await description.fill(`A kite over the ${token} dunes`);
      const empty = page.getByRole('alert').filter({ hasText: 'Insufficient credits' });
      await empty.getByText('Insufficient credits. You need 1 but have 0.').waitFor();
      await empty.getByText('To get credits, ask the person who runs this server.').waitFor();
      expect(await generate.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: /Generate without the add-ons/ }).count()).toBe(0);
      await snap('first-video-no-credits', empty);
      assertNoPageErrors();
      await context.close();
    });
  }
});
