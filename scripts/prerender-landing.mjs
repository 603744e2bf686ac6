// Renders the landing page into dist/client/.prerender/landing.html at build time (package.json build:client,
// after `vite build` and before precompress). The server sends it for `/` to a browser with no
// session cookie (src/server/http/client-files.ts), so the page paints before any JavaScript runs;
// the browser then hydrates it (src/client/app/boot.tsx). Usage: node scripts/prerender-landing.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
// index.html's #root holds the spinner shown until the app renders; the landing page replaces it.
const ROOT_ELEMENT = /<div id="root"><!--loading-->[\s\S]*?<!--\/loading--><\/div>/;
// The app's code is preloaded for every other page; the landing page loads it after it has painted.
const APP_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/g;

const vite = await createServer({
  configFile: false,
  root: path.join(root, 'src/client'),
  logLevel: 'error',
  plugins: [react()],
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: 'custom',
  define: { 'import.meta.env.PROD': 'true' },
});
try {
  const { renderLanding } = await vite.ssrLoadModule('/app/prerender.tsx');
  const { LANDING_MARKER } = await vite.ssrLoadModule('/app/prerendered.ts');
  const body = await renderLanding();
  if (body.includes('<script'))
    throw new Error('the prerendered landing page has an inline script, which the CSP would block');
  const shell = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  if (!ROOT_ELEMENT.test(shell)) throw new Error('dist/client/index.html has no #root with its loading spinner');
  const page = shell
    .replace(APP_PRELOAD, '')
    .replace(ROOT_ELEMENT, () => `<div id="root" ${LANDING_MARKER}>${body}</div>`);
  // A dot directory: the static file handler never serves it as is (the server fills in the support address first).
  mkdirSync(path.join(clientDir, '.prerender'), { recursive: true });
  writeFileSync(path.join(clientDir, '.prerender', 'landing.html'), page);
  console.log(`prerendered the landing page: ${(body.length / 1024).toFixed(0)} KiB of HTML`);
} finally {
  await vite.close();
}
