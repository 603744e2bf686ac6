// Gzipped size of the JavaScript the landing page loads: the scripts and modulepreloads that
// dist/client/index.html names (lazy routes are not counted). Run `npm run build:client` first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const clientDir = 'dist/client';
const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
let raw = 0;
let gzipped = 0;
for (const file of files) {
  const bytes = readFileSync(path.join(clientDir, file));
  raw += bytes.length;
  gzipped += gzipSync(bytes, { level: 9 }).length;
  console.log(
    `${file}: ${(bytes.length / 1024).toFixed(1)} KiB, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`,
  );
}
console.log(
  `landing page JavaScript: ${(raw / 1024).toFixed(1)} KiB, ${(gzipped / 1024).toFixed(1)} KiB gzip (${files.length} files)`,
);
