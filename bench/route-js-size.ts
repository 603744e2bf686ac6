// Gzipped JavaScript each signed-in route loads: the entry chunk, the route's own chunk and every
// chunk they import statically (lazily loaded parts, such as the upload dialog, are not counted).
// Run `npm run build:client` first (or pass the client folder), then: npx tsx bench/route-js-size.ts [clientDir]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const clientDir = process.argv[2] ?? 'dist/client';
const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('no entry chunk in the manifest');

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const gzipKiB = (file: string) => gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length / 1024;
const LIMIT_KIB = 300;
for (const route of ['generator', 'media', 'history', 'dashboard']) {
  const routeKey = `app/routes/${route}.tsx`;
  if (!manifest[routeKey]) throw new Error(`no chunk for ${routeKey}`);
  const chunks = closure([entryKey, routeKey]);
  const total = [...chunks].reduce((sum, key) => sum + gzipKiB(manifest[key]?.file ?? ''), 0);
  console.log(
    `${route}: ${total.toFixed(1)} KiB gzip in ${chunks.size} chunks ${route === 'generator' ? `(limit ${LIMIT_KIB} KiB)` : ''}`,
  );
}
