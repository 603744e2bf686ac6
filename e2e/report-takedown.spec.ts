import { describe, expect, inject, it } from 'vitest';
import { REPORT_REASON_LABELS } from '../src/shared/safety';
import { registerAccount } from './support/app-server';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

interface VideoRecord {
  id: string;
  status: string;
  watchPath: string | null;
}

/** An owner's finished video, made through the API as the browser would (the local engine). */
async function ownersVideo(): Promise<VideoRecord> {
  const cookie = await registerAccount(baseUrl, {
    email: `owner-${Date.now().toString(36)}@example.com`,
    password: 'a long enough password',
    firstName: 'Owen',
  });
  const headers = { cookie: cookie.split(';')[0] ?? '', origin: baseUrl, 'content-type': 'application/json' };
  const made = await fetch(`${baseUrl}/api/video-generation`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt: 'A lighthouse at dusk', model: 'local', duration: 2, isEconomy: true }),
  });
  if (made.status !== 201) throw new Error(`generation refused: ${made.status} ${await made.text()}`);
  const { id } = (await made.json()) as { id: string };
  let record: VideoRecord | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await fetch(`${baseUrl}/api/video-generation`, { headers })).json()) as VideoRecord[];
        record = list.find((video) => video.id === id);
        return record?.status;
      },
      { timeout: 90_000, interval: 250 },
    )
    .toBe('completed');
  if (!record?.watchPath) throw new Error('a finished video has a watch link');
  return record;
}

// Reports and takedown (issue 44): a visitor with a shared link reports a video, and an
// administrator on a phone takes it down from the safety queue.
describe('reporting a video and taking it down', () => {
  it(
    'takes a signed-out visitor from the watch page to a receipt, and the administrator takes it down on a phone',
    { timeout: 180_000 },
    async () => {
      const video = await ownersVideo();
      const watchUrl = `${baseUrl}${video.watchPath ?? ''}`;

      // A visitor, signed out, on a phone.
      const visitor = await openPage(browser.get(), baseUrl, { viewport: { width: 390, height: 844 }, hasTouch: true });
      await visitor.page.goto(watchUrl);
      await visitor.page.getByRole('heading', { name: 'A shared video' }).waitFor();
      await visitor.page.getByRole('link', { name: 'Report this video' }).click();
      await visitor.page.waitForURL(/\/report\?video=/);
      expect(await visitor.page.getByLabel('Link to the video').inputValue()).toBe(watchUrl);
      await visitor.page.getByLabel(REPORT_REASON_LABELS.likeness).check();
      await visitor.page.getByLabel('What should we know?').fill('This is my face. I never agreed to this.');
      await visitor.page.getByLabel('Your email').fill('visitor@example.com');
      // The statement a takedown request needs: refused without it.
      await visitor.page.getByRole('button', { name: 'Send Report' }).click();
      await visitor.page
        .getByText(/needs your statement/)
        .first()
        .waitFor();
      await visitor.page.getByRole('checkbox', { name: /I state in good faith/ }).check();
      await visitor.page.getByRole('button', { name: 'Send Report' }).click();
      await visitor.page.getByText('Decision due by').waitFor();
      await shoot(visitor.page, 'report-receipt');
      visitor.assertNoPageErrors();

      // The administrator, on a phone, decides.
      const operator = await openPage(browser.get(), baseUrl, {
        viewport: { width: 390, height: 844 },
        hasTouch: true,
      });
      await signIn(operator.page, admin.email, admin.password);
      await operator.page.goto('/admin/safety');
      const card = operator.page.getByRole('article').filter({ hasText: 'This is my face. I never agreed to this.' });
      await card.waitFor();
      await card.getByText(/4[78] h left/).waitFor();
      // Blurred until asked.
      await card.getByRole('button', { name: 'Show video' }).click();
      await card.getByLabel('The reported video').waitFor();
      await shoot(operator.page, 'safety-queue', card);
      await card.getByRole('button', { name: /^Take down/ }).click();
      const dialog = operator.page.getByRole('alertdialog').or(operator.page.getByRole('dialog'));
      await dialog.getByText('Take this video down?').waitFor();
      await dialog.getByRole('button', { name: /^Take down/ }).click();
      await operator.page.getByText('Taken down: the video was removed.').first().waitFor();
      await expect.poll(() => card.count()).toBe(0);
      operator.assertNoPageErrors();

      // The shared link opens nothing now.
      await visitor.page.goto(watchUrl);
      await visitor.page.getByText('This video is not available').waitFor();
      await visitor.context.close();
      await operator.context.close();
    },
  );
});
