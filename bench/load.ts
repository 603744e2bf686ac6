// 200 connections of signed-in traffic against the default install (built server, PGlite in a
// fresh DATA_DIR), while a probe asks /healthz every 50 ms: the probe's p50/p99/max, how many
// requests were served, refused (503, after which clients wait Retry-After) or took over 10 s.
// Run `npm run build` first (npm run bench:load does).
// Options: --connections N (200), --seconds N (20), --port N (3902).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { readEnv } from '../src/server/config';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : Number(process.argv[index + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

const CONNECTIONS = option('connections', 200);
const SECONDS = option('seconds', 20);
const PORT = option('port', 3902);
const BASE = `http://127.0.0.1:${PORT}`;
const SLOW_MS = 10_000;
/** Signed-in reads that each run a few queries: the session, then the page's data. */
const ROUTES = [
  '/api/video-generation',
  '/api/user/generation-status',
  '/api/auth/user',
  '/api/video-generation-jobs/recent',
];

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS + 10 });

/** One GET on a kept-alive connection of the pool; answers the status (and Retry-After) once the body is read. */
function get(pathname: string, headers: Record<string, string> = {}): Promise<number> {
  return getWithRetryAfter(pathname, headers).then((answer) => answer.status);
}

function getWithRetryAfter(
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${BASE}${pathname}`, { agent, headers, timeout: 60_000 }, (response) => {
      response.resume();
      const retryAfter = Number(response.headers['retry-after'] ?? 0);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: Number.isFinite(retryAfter) ? retryAfter : 0 }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

async function waitForServer(): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) throw new Error('the server did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signUp(): Promise<string> {
  const response = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({
      email: `load-${Date.now()}@example.com`,
      password: 'load-test-password',
      firstName: 'Load',
      lastName: 'Test',
    }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 201 || !cookie)
    throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookie;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function run(): Promise<void> {
  const cookie = await signUp();
  const deadline = Date.now() + SECONDS * 1000;
  const traffic = { done: 0, failed: 0, slow: 0, statuses: new Map<number | string, number>() };
  const count = (key: number | string) => traffic.statuses.set(key, (traffic.statuses.get(key) ?? 0) + 1);

  const client = async (id: number) => {
    for (let i = id; Date.now() < deadline; i += 1) {
      const started = Date.now();
      try {
        const { status, retryAfter } = await getWithRetryAfter(ROUTES[i % ROUTES.length] ?? '/healthz', { cookie });
        count(status);
        if (status < 200 || status > 299) traffic.failed += 1;
        // A well-behaved client (ours: TanStack Query) waits before asking again.
        if (status === 503 && retryAfter > 0) await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      } catch (error) {
        count(error instanceof Error ? error.name : 'error');
        traffic.failed += 1;
      }
      if (Date.now() - started > SLOW_MS) traffic.slow += 1;
      traffic.done += 1;
    }
  };

  const probes: number[] = [];
  let probeFailures = 0;
  const probe = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      try {
        if ((await get('/healthz')) !== 200) probeFailures += 1;
      } catch {
        probeFailures += 1;
      }
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  await Promise.all([probe(), ...Array.from({ length: CONNECTIONS }, (_, id) => client(id))]);
  const sorted = probes.sort((a, b) => a - b);
  console.log(`${CONNECTIONS} connections for ${SECONDS} s against ${BASE} (PGlite, fresh DATA_DIR)`);
  console.log(
    `/healthz: ${sorted.length} probes, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms, ${probeFailures} failed`,
  );
  const served = traffic.done - traffic.failed;
  console.log(
    `traffic: ${traffic.done} requests, ${served} answered 2xx (${(served / SECONDS).toFixed(0)}/s), ${traffic.failed} not 2xx, ${traffic.slow} over ${SLOW_MS / 1000} s`,
  );
  console.log(`answers: ${[...traffic.statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-load-'));
const env: Record<string, string | undefined> = {
  ...readEnv(),
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js', '--services=web'], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await waitForServer();
  await run();
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
