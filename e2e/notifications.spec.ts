import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

describe('notifications in the browser', () => {
  it("shows this browser's notification choice on /account", async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: baseUrl });
    const email = `notify-${Date.now()}@example.com`;
    const registered = await page.request.post('/api/auth/register', {
      data: { email, password: 'member-password', firstName: 'Nora' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/account');
    const section = page.locator('section, div').filter({ has: page.getByText('This browser', { exact: true }) });
    await page.getByText('This browser', { exact: true }).waitFor();
    // A browser that can be told (service worker and push), not yet asked: the choice is Off.
    await section.getByText('Off', { exact: true }).first().waitFor();
    await page.getByText('This browser', { exact: true }).scrollIntoViewIfNeeded();
    await shoot(page, 'account-notifications');
    assertNoPageErrors();
    await context.close();
  });

  it(
    'offers notifications under a video that has just started, until it is answered',
    { timeout: 120_000 },
    async () => {
      const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { serviceWorkers: 'allow' });
      await context.grantPermissions(['notifications'], { origin: baseUrl });
      await signIn(page, admin.email, admin.password);
      // A slow job first, so the one followed below is still waiting while the page is looked at.
      const slow = await page.request.post('/api/video-generation', {
        data: { prompt: 'A slow violet and teal aurora', duration: 10, jsonPrompt: '{"resolution":"1080p"}' },
        headers: { origin: baseUrl },
      });
      expect(slow.status()).toBe(201);
      const created = await page.request.post('/api/video-generation', {
        data: { prompt: 'Lanterns over a quiet harbour', duration: 4 },
        headers: { origin: baseUrl },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await page.goto(`/media?video=${encodeURIComponent(id)}`);
      const offer = page.getByRole('complementary', { name: 'Notifications' });
      await offer.getByText('Get a notification when it is ready, so you can leave this page.').waitFor();
      await shoot(page, 'media-notify-offer');
      await offer.getByRole('button', { name: 'Not now' }).click();
      await offer.waitFor({ state: 'detached' });
      // Answered once: the browser remembers it, and the offer is not made again.
      expect(await page.evaluate(() => localStorage.getItem('reelsmith:notify-offer-dismissed'))).toBe('1');
      assertNoPageErrors();
      await context.close();
    },
  );
});
