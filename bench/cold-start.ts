// Cold start on an existing installation (issue 32): `npm run serve` (node dist/server/main.js) on a
// DATA_DIR that already holds an embedded database with users and sessions, timed from spawn to the
// first 200 on /healthz and to the first 200 on /api/auth/user (signed in: a session read from the
// database). The server logs its own phases (LOG_LEVEL=info: "startup phases") and they are printed
// beside the figures. Target: the first answer within 2 s.
// `npm run bench:cold-start` builds the server first. Options: --runs N (5), --server FILE (dist/server/main.js).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEnv } from '../src/server/config';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt === -1 ? 5 : Number(process.argv[runsAt + 1]);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1');
const serverAt = process.argv.indexOf('--server');
// Another build to compare with, e.g. one made from an older commit (`git worktree add`, `npm run build:server`).
const SERVER = serverAt === -1 ? 'dist/server/main.js' : (process.argv[serverAt + 1] ?? 'dist/server/main.js');
const PORT = 3931;
const base = `http://127.0.0.1:${PORT}`;

function start(dataDir: string): { child: ChildProcess; output: () => string } {
  const env: Record<string, string | undefined> = {
    ...readEnv(),
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  delete env.S3_BUCKET;
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function firstOk(url: string, started: number, headers: Record<string, string> = {}): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 300_000) throw new Error(`${url}: no 200 within 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-cold-'));
try {
  // The installation: first start (initdb, migrations), an account and a signed-in session.
  const first = start(dataDir);
  const firstStarted = performance.now();
  const firstRun = await firstOk(`${base}/healthz`, firstStarted);
  const register = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery', firstName: 'Olu' }),
  });
  if (register.status >= 300) throw new Error(`register: ${register.status} ${await register.text()}`);
  const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await stop(first.child);

  const health: number[] = [];
  const user: number[] = [];
  let phases = '';
  for (let i = 0; i < runs; i += 1) {
    const server = start(dataDir);
    const started = performance.now();
    health.push(await firstOk(`${base}/healthz`, started));
    user.push(await firstOk(`${base}/api/auth/user`, started, { cookie }));
    await stop(server.child);
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('startup phases'));
    if (line) phases = line;
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  console.log(`first start on an empty DATA_DIR (initdb + migrations): ${firstRun.toFixed(0)} ms`);
  console.log(
    `restart on a DATA_DIR with data, median of ${runs}: /healthz ${median(health).toFixed(0)} ms, /api/auth/user (signed in) ${median(user).toFixed(0)} ms`,
  );
  console.log(`  all runs /healthz:       ${health.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log(`  all runs /api/auth/user: ${user.map((v) => v.toFixed(0)).join(', ')} ms`);
  if (phases) {
    const parsed = JSON.parse(phases) as { phasesMs?: Record<string, number> };
    console.log(`  server's own phases (last run): ${JSON.stringify(parsed.phasesMs)}`);
  }
  console.log(`  target: first answer within 2000 ms: ${median(user) <= 2000 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
