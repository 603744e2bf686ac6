// Draws the visible "AI" label (VISIBLE_AI_LABEL) as a PNG with Chromium: a white "AI" on a dark,
// half-clear rounded box. The PNG is committed; run this only to change it: node scripts/make-ai-label.mjs
import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ deviceScaleFactor: 1 });
await page.setContent(
  `<body style="margin:0;background:transparent"><div id="l" style="display:inline-block;font:700 88px/1 'DejaVu Sans',sans-serif;color:#fff;background:rgba(0,0,0,.55);padding:14px 30px 16px;border-radius:26px;border:4px solid rgba(255,255,255,.85);letter-spacing:3px">AI</div></body>`,
);
await page
  .locator('#l')
  .screenshot({ path: process.argv[2] ?? 'src/server/modules/provenance/ai-label.png', omitBackground: true });
await browser.close();
