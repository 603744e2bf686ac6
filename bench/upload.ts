// Uploading a 50 MiB file through the local signed URL: the server's resident-memory growth and
// its throughput next to a bare node:http server that pipes the request to a file, measured in
// the same run. Run `npm run build:server` first, then: npx tsx bench/upload.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEnv } from '../src/server/config';
import { MAX_UPLOAD_BYTES } from '../src/shared/uploads';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-upload-bench-'));
const file = path.join(dir, 'upload.bin');
const png = readFileSync('tests/fixtures/chelsea.png');
const body = Buffer.alloc(MAX_UPLOAD_BYTES, 3);
png.copy(body);
writeFileSync(file, body);

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${url} never answered`);
}

function send(url: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { 'content-type': 'image/png', 'content-length': String(body.length), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

const BARE = `require('node:http').createServer((req, res) => {
  const out = require('node:fs').createWriteStream(process.argv[1] + '/' + Math.random());
  req.pipe(out); out.on('finish', () => res.end('ok'));
}).listen(3931, '127.0.0.1');`;

const children: ChildProcess[] = [];
try {
  const bare = spawn(process.execPath, ['-e', BARE, dir], { stdio: 'ignore' });
  children.push(bare);
  const env: Record<string, string | undefined> = {
    ...readEnv(),
    PORT: '3932',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], { env, stdio: 'inherit' });
  children.push(server);
  await waitFor('http://127.0.0.1:3931/');
  await waitFor('http://127.0.0.1:3932/healthz');

  const base = 'http://127.0.0.1:3932';
  const headers = { 'content-type': 'application/json', origin: base };
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark-pass', firstName: 'Bench' }),
  });
  const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  const bareRuns: number[] = [];
  const ourRuns: number[] = [];
  let peakGrowth = 0;
  for (let i = 0; i < 3; i += 1) {
    bareRuns.push((await send('http://127.0.0.1:3931/')).ms);
    const target = (await (
      await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie, origin: base } })
    ).json()) as { uploadURL: string };
    await new Promise((r) => setTimeout(r, 300));
    const before = rssKiB(server.pid ?? 0);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(server.pid ?? 0))), 10);
    const result = await send(`${base}${target.uploadURL}`, { origin: base });
    clearInterval(sampler);
    if (result.status !== 200) throw new Error(`upload answered ${result.status}`);
    ourRuns.push(result.ms);
    peakGrowth = Math.max(peakGrowth, (peak - before) / 1024);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] ?? 0;
  const mib = MAX_UPLOAD_BYTES / 1024 / 1024;
  const ours = mib / (median(ourRuns) / 1000);
  const bareRate = mib / (median(bareRuns) / 1000);
  console.log(`bare node:http pipe to file: ${bareRate.toFixed(0)} MiB/s (median of 3)`);
  console.log(
    `Reelsmith signed upload:     ${ours.toFixed(0)} MiB/s (median of 3), ${((ours / bareRate) * 100).toFixed(0)}% of bare`,
  );
  console.log(`server RSS growth during a 50 MiB upload: ${peakGrowth.toFixed(1)} MiB at most`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}
