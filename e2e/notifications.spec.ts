import { describe, expect, inject, it } from 'vitest';
import { registerAccount } from './support/app-server';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
// Notifications and their permission are the full browser's: the headless shell has neither.
const browser = useBrowser('full');

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

  it('sends the tab that turned notifications on to the video a notification names, with no reload in between', async () => {
    const email = `nia-${Date.now().toString(36)}@example.com`;
    await registerAccount(baseUrl, { email, password: 'member-password', firstName: 'Nia' });
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: baseUrl });
    await signIn(page, email, 'member-password');
    await page.getByRole('heading', { name: 'Video Dashboard' }).waitFor();
    // The worker this page installed takes it over at once: no reload.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (navigator.serviceWorker.controller) return;
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    // What the server's push shows, clicked: the worker's own notificationclick handler runs.
    await worker.evaluate(async () => {
      // The worker's own globals (this project's types are the page's, not a worker's).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
      };
      const NotificationEvent = (self as unknown as { NotificationEvent: new (type: string, init: object) => Event })
        .NotificationEvent;
      await scope.registration.showNotification('Your video is ready', {
        tag: 'video-e2e',
        data: { url: '/media?video=e2e-video' },
      });
      const [notification] = await scope.registration.getNotifications({ tag: 'video-e2e' });
      if (!notification) throw new Error('the notification was not shown');
      const click = new NotificationEvent('notificationclick', { notification });
      let handled: Promise<unknown> = Promise.resolve();
      // A script's event is not the browser's, so waitUntil would refuse it: keep the promise instead.
      Object.defineProperty(click, 'waitUntil', { value: (promise: Promise<unknown>) => (handled = promise) });
      scope.dispatchEvent(click);
      await handled;
    });
    await page.waitForURL(`${baseUrl}/media?video=e2e-video`);
    assertNoPageErrors();
    await context.close();
  });
});
