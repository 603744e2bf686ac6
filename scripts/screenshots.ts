// Screenshots of the main screens at phone and desktop sizes, light and dark, into e2e/screenshots/.
// Start the app first (npm start), then: npx tsx scripts/screenshots.ts [baseUrl]
import { mkdirSync } from 'node:fs';
import { launchBrowser, openPage } from '../e2e/support/browser';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const outDir = 'e2e/screenshots';
mkdirSync(outDir, { recursive: true });
// The widths the team checks every screen at: a 390 px phone and a 1440 px desktop.
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1440, height: 900 } };
const email = `shots-${Date.now()}@example.com`;

const browser = await launchBrowser();
for (const scheme of ['light', 'dark'] as const) {
  for (const [sizeName, viewport] of Object.entries(sizes)) {
    const { page, context } = await openPage(browser, baseUrl, { colorScheme: scheme, viewport });
    const shot = async (name: string) => {
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${outDir}/${name}-${sizeName}-${scheme}.png`, fullPage: name === 'landing' });
    };
    for (const [name, url] of [
      ['landing', '/'],
      ['login', '/login?error=google_auth_failed'],
      ['register', '/register'],
      ['not-found', '/nope'],
      ['sign-in-required', '/history'],
    ] as const) {
      await page.goto(url);
      await shot(name);
    }
    await page.request.post('/api/auth/register', {
      data: { email: `${scheme}-${sizeName}-${email}`, password: 'longenough', firstName: 'Shot', lastName: 'Taker' },
      headers: { origin: baseUrl },
    });
    await page.goto('/dashboard');
    await shot('dashboard');
    await page.goto('/');
    await shot('generator');
    await page.getByRole('button', { name: 'Choose Image' }).click();
    await page.locator('.uppy-Dashboard input[type=file]').first().setInputFiles('tests/fixtures/chelsea.png');
    await shot('upload-dialog');
    await page.keyboard.press('Escape');
    // The first account of a fresh installation is the administrator; later ones see Access Denied.
    await page.goto('/admin');
    await shot('admin');
    await context.close();
  }
}
await browser.close();
console.log(`screenshots in ${outDir}/`);
