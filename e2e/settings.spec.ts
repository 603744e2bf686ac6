import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeFal, startFakeFal } from '../tests/support/fake-fal';
import { makeMediaFixtures } from '../tests/support/media';
import type { GenerationRecord } from '../src/shared/generations';
import { type RunningServer, startBuiltServer } from './support/app-server';
import { openPage, shoot, useBrowser } from './support/browser';

// The first hour of an operator (issue 45): a keyless server's administrator connects fal.ai on the
// settings page (against the fal stand-in, tests/support/fake-fal.ts), a wrong key is refused with
// fal's reason, the right one is kept, and the next video is made by fal.ai with no restart.

const browser = useBrowser();
const RIGHT_KEY = 'fal-e2e-right-key-7c1d';

describe('connecting a video model from the browser', () => {
  let app: RunningServer | undefined;
  let fal: FakeFal | undefined;
  beforeAll(async () => {
    fal = await startFakeFal((await makeMediaFixtures()).video, RIGHT_KEY);
    fal.stepMs = 20;
    // fal's addresses are the stand-in's; no key: the administrator brings it.
    app = await startBuiltServer({
      FAL_BASE_URL: fal.baseUrl,
      FAL_API_URL: fal.baseUrl,
      PROVIDER_POLL_SECONDS: '0.05',
    });
  }, 200_000);
  afterAll(async () => {
    await app?.stop();
    await fal?.close();
  });

  it('refuses a wrong key with the reason, keeps the right one, and the next video is made by fal.ai', async () => {
    const baseUrl = app?.baseUrl ?? '';
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    // The first account of a fresh installation is its administrator.
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `operator-${Date.now()}@example.com`, password: 'operator-password', firstName: 'Otto' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);

    await page.goto('/admin');
    const checklist = page.getByRole('region', { name: 'Finish setting up this server' });
    await checklist.waitFor();
    await shoot(page, 'settings-checklist', checklist);
    await checklist.getByRole('link', { name: 'Open Settings' }).click();
    await page.waitForURL('**/admin/settings');

    const form = page.getByRole('form', { name: 'fal.ai keys' });
    await form.getByLabel('fal.ai API key').fill('fal-e2e-wrong-key');
    await form.getByRole('button', { name: 'Test and connect' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      'fal.ai refused this: Invalid API key: no fal.ai key matches it. Nothing was saved.',
    );
    await shoot(page, 'settings-refused', refusal);

    await form.getByLabel('fal.ai API key').fill(RIGHT_KEY);
    await form.getByRole('button', { name: 'Test and connect' }).click();
    const card = page.locator('[data-provider="fal"]');
    await card.getByText('Connected', { exact: true }).waitFor();
    await card.getByText(/Key …7c1d saved .*, encrypted\. Now offered: Veo 3 \(fal\.ai\)/).waitFor();
    expect(await page.getByText(/this server makes previews only/).count()).toBe(0);
    await shoot(page, 'settings-connected', card);
    await shoot(page, 'settings-payments-mail', page.locator('[data-setting="mail"]'));
    const rules = page.getByRole('form', { name: 'Videos and sign-ups' });
    await rules.getByLabel('Keep videos for (hours)').waitFor();
    await shoot(page, 'settings-rules', rules);

    // The generator offers fal's models now, with no preview notice; the next video goes to fal.ai.
    await page.goto('/generator');
    await page.getByLabel('Video Description').fill('A lighthouse in a storm at night');
    await page.getByLabel('Model', { exact: true }).selectOption('fal-veo3');
    expect(await page.getByText('Previews only on this server').count()).toBe(0);
    const posted = page.waitForResponse(
      (r) => r.url().endsWith('/api/video-generation') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Generate Video' }).click();
    const created = (await (await posted).json()) as GenerationRecord;
    expect(created.model).toBe('fal-veo3');
    await expect
      .poll(
        async () => {
          const list = (await (await page.request.get('/api/video-generation')).json()) as GenerationRecord[];
          return list.find((g) => g.id === created.id)?.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('completed');
    expect(fal?.requests.map((r) => r.endpoint)).toEqual(['fal-ai/veo3']);
    assertNoPageErrors();
    await context.close();
  });
});
