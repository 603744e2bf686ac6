import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { makeClip } from '../tests/support/media';
import { openPage, shoot, signIn, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const browser = useBrowser();

// /verify (issue 42): anyone, signed out, checks a file's Content Credentials in the browser.
describe('checking Content Credentials', () => {
  it("shows the player's mark on a video made here, that video as intact and signed, an altered copy as broken, and a bare clip as carrying none", async () => {
    // A video made on this installation, as its owner downloads it.
    const owner = await openPage(browser.get(), baseUrl);
    await signIn(owner.page, admin.email, admin.password);
    const made = await owner.page.request.post('/api/video-generation', {
      headers: { origin: baseUrl },
      data: { prompt: `A paper boat on a pond ${Date.now().toString(36)}`, model: 'local', duration: 2 },
    });
    expect(made.status()).toBe(201);
    const id = ((await made.json()) as { id: string }).id;
    let url: string | null = null;
    await expect
      .poll(
        async () => {
          const list = (await (await owner.page.request.get('/api/video-generation')).json()) as {
            id: string;
            status: string;
            outputVideoUrl: string | null;
          }[];
          const record = list.find((item) => item.id === id);
          url = record?.outputVideoUrl ?? null;
          return record?.status;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe('completed');
    const video = Buffer.from(await (await owner.page.request.get(url ?? '')).body());

    // The player's mark says what the file's credentials hold, opened in place.
    await owner.page.goto(`/media?video=${id}`);
    const mark = owner.page.getByRole('button', { name: /Content Credentials/ });
    await mark.waitFor();
    expect(await mark.textContent()).toContain('Made by an algorithm (no AI model)');
    await mark.click();
    await owner.page.getByText(baseUrl, { exact: true }).waitFor();
    await shoot(owner.page, 'player-credentials', mark);
    await owner.context.close();

    const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-verify-'));
    const signed = path.join(dir, 'paper-boat.mp4');
    writeFileSync(signed, video);
    const altered = Buffer.from(video);
    const mdat = altered.indexOf('mdat');
    altered[mdat + 300] = (altered[mdat + 300] ?? 0) ^ 0xff;
    const alteredFile = path.join(dir, 'paper-boat-edited.mp4');
    writeFileSync(alteredFile, altered);
    const bare = path.join(dir, 'camera-clip.mp4');
    writeFileSync(bare, await makeClip(1));

    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    await page.goto('/verify');
    await page.getByRole('heading', { name: 'Check Content Credentials' }).waitFor();
    const picker = page.locator('input[type=file]');
    const result = page.getByRole('region', { name: 'Result' });

    await picker.setInputFiles(signed);
    await result.getByRole('heading', { name: 'Content Credentials intact' }).waitFor();
    await result.getByText('Known signer').waitFor();
    await result.getByText('Made by an algorithm (no AI model)').waitFor();
    expect(await result.getByText(baseUrl).count()).toBe(1);
    // The result has the focus: a screen reader reads it, a keyboard continues from it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-live'))).toBe('polite');
    await shoot(page, 'verify-intact');

    await picker.setInputFiles(alteredFile);
    await result.getByRole('heading', { name: 'Content Credentials broken' }).waitFor();
    await result.getByText('assertion.bmffHash.mismatch', { exact: false }).first().waitFor();
    await shoot(page, 'verify-altered');

    await picker.setInputFiles(bare);
    await result.getByRole('heading', { name: 'No Content Credentials' }).waitFor();
    await shoot(page, 'verify-none');
    assertNoPageErrors();
    await context.close();
  }, 180_000);
});
