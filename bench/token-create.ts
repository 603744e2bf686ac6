// POST /api/video-generation by personal access token against by session cookie, in one run (issue 30:
// the token path should cost within 10% of the cookie path). Our built server runs as a web process
// (--services=web, so jobs stay pending) on a fresh PostgreSQL database; each of USERS users has a
// session and a token (videos:write) and makes PER_USER creates per round (the unfinished-jobs limit
// is 3). Rounds alternate cookie/token, every round starts from the same data (no generations, 10
// credits each); the median requests per second of each is reported with the ratio token/cookie.
// Needs: `npm run build:server` (the npm script does it) and PostgreSQL.
// Options: --server FILE (dist/server/main.js), --rounds N (5), --users N (300), --per-user N (3), --connections N (16).
// PERF_DATABASE_URL (postgres://postgres@127.0.0.1:5432/perf) names a database whose server this run may
// create a database on (reelsmith_bench_token_*, dropped at the end).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readEnv } from '../src/server/config';
import { option, waitFor } from './support';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

const env = readEnv();
const ADMIN_URL = env.PERF_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/perf';
const SERVER = option('server', 'dist/server/main.js');
const ROUNDS = Number(option('rounds', '5'));
const USERS = Number(option('users', '300'));
const PER_USER = Number(option('per-user', '3'));
const CONNECTIONS = Number(option('connections', '16'));
const PORT = 3931;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

interface Caller {
  cookie: string;
  bearer: string;
}

async function seedUsers(db: pg.Client): Promise<Caller[]> {
  const callers: Caller[] = [];
  for (let i = 1; i <= USERS; i += 1) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name) VALUES ($1, 'Load') RETURNING id`,
      [`load${i}@example.test`],
    );
    const userId = rows[0]?.id;
    const session = randomBytes(32).toString('base64url');
    await db.query(`INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '30 days')`, [
      sha256(session),
      userId,
    ]);
    const token = `rs_${randomBytes(32).toString('base64url')}`;
    await db.query(
      `INSERT INTO api_tokens (user_id, token_hash, name, scopes) VALUES ($1, $2, 'bench', '["videos:write"]'::jsonb)`,
      [userId, sha256(token)],
    );
    callers.push({ cookie: `rs_session=${session}`, bearer: `Bearer ${token}` });
  }
  return callers;
}

async function reseed(db: pg.Client): Promise<void> {
  await db.query(`DELETE FROM generations; DELETE FROM credit_ledger; DELETE FROM allowance_ledger; DELETE FROM live_events;
    UPDATE users SET credits_hundredths = 1000, credits_used_hundredths = 0; ANALYZE`);
}

const BODY = JSON.stringify({ prompt: 'A lighthouse at dusk, waves below', duration: 5 });

function post(agent: http.Agent, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method: 'POST',
        path: '/api/video-generation',
        agent,
        timeout: 30_000,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY), ...headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(BODY);
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non201: number;
}

async function round(callers: Caller[], mode: 'cookie' | 'token'): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  // Every user's creates, interleaved so that one user's requests do not queue behind each other.
  const work: Record<string, string>[] = [];
  for (let n = 0; n < PER_USER; n += 1)
    for (const caller of callers)
      work.push(mode === 'cookie' ? { cookie: caller.cookie } : { authorization: caller.bearer });
  const times: number[] = [];
  let non201 = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < work.length) {
        const headers = work[next++];
        if (!headers) break;
        const result = await post(agent, headers);
        times.push(result.ms);
        if (result.status !== 201) non201 += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { rps: work.length / seconds, p50: at(0.5), p99: at(0.99), non201 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const name = `reelsmith_bench_token_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-bench-token-'));
  let server: ChildProcess | null = null;
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER, '--services=web'], {
      env: {
        ...env,
        DATABASE_URL: url.toString(),
        DATA_DIR: path.join(dir, 'data'),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${PORT}`,
        SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`http://127.0.0.1:${PORT}/readyz`);
    await db.connect();
    const callers = await seedUsers(db);
    console.log(
      `POST /api/video-generation on PostgreSQL: ${USERS} users x ${PER_USER} creates per round, ${CONNECTIONS} connections, ${ROUNDS} rounds each, alternating cookie/token`,
    );
    // One warm-up round of each, not counted.
    for (const mode of ['cookie', 'token'] as const) {
      await reseed(db);
      await round(callers, mode);
    }
    const results = { cookie: [] as Figures[], token: [] as Figures[] };
    for (let r = 1; r <= ROUNDS; r += 1) {
      for (const mode of r % 2 ? (['cookie', 'token'] as const) : (['token', 'cookie'] as const)) {
        await reseed(db);
        const figures = await round(callers, mode);
        results[mode].push(figures);
        console.log(
          `  round ${r} ${mode.padEnd(6)} ${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${figures.p50.toFixed(1)} ms  p99 ${figures.p99.toFixed(1)} ms  non-201 ${figures.non201}`,
        );
      }
    }
    const rps = (mode: 'cookie' | 'token') => median(results[mode].map((f) => f.rps));
    const p50 = (mode: 'cookie' | 'token') => median(results[mode].map((f) => f.p50));
    console.log('\nmedian of the rounds');
    for (const mode of ['cookie', 'token'] as const)
      console.log(`  ${mode.padEnd(6)} ${rps(mode).toFixed(0).padStart(6)} req/s  p50 ${p50(mode).toFixed(1)} ms`);
    const ratio = rps('token') / rps('cookie');
    console.log(
      `  token/cookie throughput ${ratio.toFixed(3)}x (${ratio >= 0.9 ? 'within' : 'NOT within'} the 10% target)`,
    );
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => (server ? server.once('exit', resolve) : resolve(null)));
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
