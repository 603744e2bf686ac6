import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { openPage, shoot, useBrowser } from './support/browser';

const baseUrl = inject('baseUrl');
const CAT = path.resolve(import.meta.dirname, '../tests/fixtures/chelsea.png');
const browser = useBrowser();

describe('AI assist on the generator', () => {
  it('enhances the description, uses the enhanced prompt, and analyses an uploaded image', async () => {
    const { page, context, assertNoPageErrors } = await openPage(browser.get(), baseUrl);
    const registered = await page.request.post('/api/auth/register', {
      data: { email: `assist-${Date.now()}@example.com`, password: 'assist-password', firstName: 'Ada' },
      headers: { origin: baseUrl },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/generator');
    const description = page.getByLabel('Video Description');
    await description.fill('A cat on a windowsill');
    await page.getByRole('switch', { name: 'AI Enhance' }).click();
    const panel = page.getByRole('region', { name: 'Enhanced prompt' });
    await panel.getByText(/% confidence/).waitFor();
    const improvements = await panel.getByRole('list', { name: 'Improvements' }).getByRole('listitem').count();
    expect(improvements).toBeGreaterThan(0);
    // The enhanced prompt starts with the user's own words, as written.
    const enhancedPrompt = panel.getByText(/^A cat on a windowsill/);
    await enhancedPrompt.waitFor();
    const enhanced = await enhancedPrompt.innerText();
    await panel.scrollIntoViewIfNeeded();
    await shoot(page, 'generator-enhanced');
    await panel.getByRole('button', { name: 'Use Enhanced' }).click();
    expect(await description.inputValue()).toBe(enhanced);
    expect(await page.getByRole('switch', { name: 'AI Enhance' }).getAttribute('aria-checked')).toBe('false');

    await page.getByRole('button', { name: 'Choose Image' }).click();
    const picker = page.locator('.uppy-Dashboard input[type=file]').first();
    await picker.waitFor({ state: 'attached' });
    await picker.setInputFiles(CAT);
    await page.getByRole('button', { name: /^Upload 1 file/ }).click();
    const card = page.getByRole('region', { name: 'AI Image Analysis' });
    await card.getByText('Suggested prompt').waitFor({ timeout: 60_000 });
    await card.getByText('Lighting').waitFor();
    await card
      .getByRole('list', { name: 'Detected objects' })
      .getByText(/^cat · \d+%$/)
      .waitFor();
    expect((await card.locator('p').first().innerText()).length).toBeGreaterThan(20);
    await page.getByText('Image Analyzed', { exact: true }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'generator-analysis');
    await card.getByRole('button', { name: 'Use This' }).click();
    expect((await description.inputValue()).length).toBeGreaterThan(10);
    assertNoPageErrors();
    await context.close();
  });
});
