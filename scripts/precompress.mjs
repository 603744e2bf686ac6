// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the client build, so
// the server sends compressed bytes without compressing on each request (src/server/http/client-files.ts).
// Runs after `vite build` (package.json build:client); usage: node scripts/precompress.mjs [dir].
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm)$/;
/** Below this the headers cost more than the saving. */
const MIN_BYTES = 1024;

const root = path.resolve(process.argv[2] ?? 'dist/client');

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let raw = 0;
let brotli = 0;
let count = 0;
for (const file of filesUnder(root)) {
  if (statSync(file).size < MIN_BYTES) continue;
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  const gz = gzipSync(bytes, { level: 9 });
  // A copy that is not smaller would only waste a lookup.
  if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  raw += bytes.length;
  brotli += Math.min(br.length, bytes.length);
  count += 1;
}
console.log(`precompressed ${count} files: ${(raw / 1024).toFixed(0)} KiB -> ${(brotli / 1024).toFixed(0)} KiB brotli`);
