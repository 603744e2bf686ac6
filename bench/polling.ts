// Polling and live updates, measured side by side with the reference servers (issue 18):
// - GET /api/user/status (signed in) and GET /api/video-generation with 50 completed videos, polled
//   with If-None-Match after the first answer, on PostgreSQL, 32 keep-alive connections on loopback,
//   against an Express 5 + express-session + connect-pg-simple + passport server and a bare
//   node:http + pg server (../shared/bench/ref-servers.mjs) serving the same data from the same
//   database; rounds alternate between the three servers and the median of each is reported;
// - a progress write by this process (as a worker would) reaching an open event stream of the web
//   process: p50/p95/max over 100 updates;
// - 1,000 open event streams on the web process: its memory and CPU.
// Needs: `npm run build:server`, PostgreSQL, and the reference servers installed in a writable copy:
//   cp ../shared/bench/{ref-servers.mjs,package.json} /tmp/ref && (cd /tmp/ref && npm install)
// Options: --ref-dir DIR (/tmp/i18-refbench), --seconds N per round (5), --rounds N (3), --connections N (32).
// PERF_DATABASE_URL (postgres://postgres@127.0.0.1:5432/perf) names the database; create it first.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readEnv } from '../src/server/config';
import { option, start, stopChildren, waitFor } from './support';
import { openSse, type SseEvent, type SseStream } from '../tests/support/sse-client';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

const env = readEnv();
const DATABASE_URL = env.PERF_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/perf';
const REF_DIR = option('ref-dir', '/tmp/i18-refbench');
const SECONDS = Number(option('seconds', '5'));
const ROUNDS = Number(option('rounds', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const OURS = 3911;
const EXPRESS = 3912;
const BARE = 3913;
const STREAMS = 1000;

const startWith = (command: string, args: string[], extraEnv: Record<string, string>, cwd?: string) =>
  start(command, args, { ...env, ...extraEnv }, cwd);

/** Requests per second of `connections` keep-alive clients asking `url` for `seconds`; with `etag`, If-None-Match after the first answer. */
async function load(
  port: number,
  url: string,
  cookie: string,
  etag: boolean,
): Promise<{ rps: number; statuses: Record<string, number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const deadline = Date.now() + SECONDS * 1000;
  let done = 0;
  const statuses: Record<string, number> = {};
  const client = async () => {
    let tag: string | undefined;
    while (Date.now() < deadline) {
      const status = await new Promise<number>((resolve, reject) => {
        const headers: Record<string, string> = { cookie, ...(etag && tag ? { 'if-none-match': tag } : {}) };
        const request = http.get({ host: '127.0.0.1', port, path: url, agent, headers }, (response) => {
          const got = response.headers.etag;
          if (typeof got === 'string') tag = got;
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
      });
      statuses[status] = (statuses[status] ?? 0) + 1;
      done += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  agent.destroy();
  return { rps: done / ((Date.now() - started) / 1000), statuses };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function seedOurs(db: pg.Client): Promise<{ cookie: string; userId: string }> {
  const response = await fetch(`http://127.0.0.1:${OURS}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${OURS}` },
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      password: 'bench-password-123',
      firstName: 'Bench',
    }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 201 || !cookie)
    throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users ORDER BY created_at DESC LIMIT 1');
  const userId = rows[0]?.id ?? '';
  await db.query('UPDATE users SET credits_hundredths = 100000 WHERE id = $1', [userId]);
  for (let i = 0; i < 50; i += 1) {
    await db.query(
      `INSERT INTO generations (user_id, prompt, model, status, requested_duration, output_duration, has_audio, credits_used_hundredths,
         progress, progress_stage, output_key, poster_key, created_at, started_at, completed_at, expires_at)
       VALUES ($1, $2, 'local', 'completed', 10, 10, true, 100, 100, 'Completed', $3, $4, now() - ($5 || ' minutes')::interval,
         now() - ($5 || ' minutes')::interval, now() - ($5 || ' minutes')::interval, now() + interval '23 hours')`,
      [
        userId,
        `a reference prompt number ${i} with some words in it to look like a real description of a video`,
        `outputs/${userId}/${i}.mp4`,
        `outputs/${userId}/${i}.jpg`,
        String(i),
      ],
    );
  }
  return { cookie, userId };
}

/** An event stream of the web process, as a signed-in tab opens it. */
async function openStream(cookie: string): Promise<SseStream> {
  const stream = await openSse(`http://127.0.0.1:${OURS}`, cookie);
  if (stream.status === 200) return stream;
  stream.close();
  throw new Error(`stream answered ${stream.status}`);
}

async function progressLatency(db: pg.Client, cookie: string, userId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO generations (user_id, prompt, model, status, requested_duration, has_audio, lease_owner, lease_expires_at, started_at, progress_stage)
     VALUES ($1, 'Latency probe', 'local', 'processing', 10, false, 'bench-worker', now() + interval '1 hour', now(), 'Starting') RETURNING id`,
    [userId],
  );
  const id = rows[0]?.id ?? '';
  const stream = await openStream(cookie);
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The worker's own two statements (saveProgress, then the event), from this separate process.
  const { saveProgress } = await import('../src/server/modules/generations/lifecycle.repository');
  const { publishGenerationChange } = await import('../src/server/bus/publish');
  const { openDatabase } = await import('../src/server/db/client');
  const database = await openDatabase({ kind: 'postgres', url: DATABASE_URL, poolSize: 2 });
  const latencies: number[] = [];
  for (let progress = 1; progress <= 100; progress += 1) {
    const reached = ({ event, data }: SseEvent) => {
      const record = data as { id: string; progress: number };
      return event === 'generation' && record.id === id && record.progress === progress;
    };
    // Measured until the event arrives, or for at most 5 s when it never does.
    const arrived = stream.next(reached, 5000).catch(() => undefined);
    const started = performance.now();
    await saveProgress(database.db, id, 'bench-worker', { progress, stage: 'Rendering', leaseSeconds: 3600 });
    await publishGenerationChange(database.db, userId, id);
    await arrived;
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stream.close();
  await database.close();
  return latencies.sort((a, b) => a - b);
}

function processFigures(pid: number): { rssMb: number; cpuTicks: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { rssMb: rssKb / 1024, cpuTicks: Number(stat[11]) + Number(stat[12]) };
}

async function manyStreams(db: pg.Client, pid: number): Promise<string> {
  // 200 users with 5 sessions each (the per-user limit), made directly in the database.
  const cookies: string[] = [];
  for (let u = 0; u < STREAMS / 5; u += 1) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name) VALUES ($1, 'Stream') RETURNING id`,
      [`stream-${u}-${randomBytes(3).toString('hex')}@example.com`],
    );
    for (let s = 0; s < 5; s += 1) {
      const token = randomBytes(32).toString('base64url');
      await db.query(`INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
        createHash('sha256').update(token).digest('base64url'),
        rows[0]?.id,
      ]);
      cookies.push(`rs_session=${token}`);
    }
  }
  const before = processFigures(pid);
  const opened = Date.now();
  // In batches, as tabs would come: a thousand snapshots at once would be shed with 503 (decision 009).
  const streams: SseStream[] = [];
  for (let i = 0; i < cookies.length; i += 25) {
    streams.push(...(await Promise.all(cookies.slice(i, i + 25).map(openStream))));
  }
  const openMs = Date.now() - opened;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const open = processFigures(pid);
  const idleSeconds = 30;
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const after = processFigures(pid);
  for (const stream of streams) stream.close();
  const ticks = 100;
  return [
    `${STREAMS} streams opened in ${openMs} ms (each with its snapshot)`,
    `RSS ${before.rssMb.toFixed(0)} MB before, ${open.rssMb.toFixed(0)} MB with them open (${(((open.rssMb - before.rssMb) * 1024) / STREAMS).toFixed(1)} KB per stream)`,
    `CPU while open and idle (heartbeats every 20 s): ${(((after.cpuTicks - open.cpuTicks) / ticks / idleSeconds) * 100).toFixed(2)}% of one core over ${idleSeconds} s`,
  ].join('\n  ');
}

async function main(): Promise<void> {
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-bench-'));
  const ours = startWith(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js', '--services=web'], {
    DATABASE_URL,
    DATA_DIR: dataDir,
    PORT: String(OURS),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${OURS}`,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
    NODE_ENV: 'production',
  });
  const refEnv = { PERF_DATABASE_URL: DATABASE_URL };
  await new Promise<void>((resolve, reject) => {
    const seed = spawn(process.execPath, ['ref-servers.mjs', 'seed'], {
      cwd: REF_DIR,
      env: { ...env, ...refEnv },
      stdio: 'ignore',
    });
    seed.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`reference seed failed (${code}); is ${REF_DIR} installed?`)),
    );
  });
  startWith(process.execPath, ['ref-servers.mjs', 'express', String(EXPRESS)], refEnv, REF_DIR);
  startWith(process.execPath, ['ref-servers.mjs', 'bare', String(BARE)], refEnv, REF_DIR);
  await Promise.all([
    waitFor(`http://127.0.0.1:${OURS}/healthz`),
    waitFor(`http://127.0.0.1:${EXPRESS}/`),
    waitFor(`http://127.0.0.1:${BARE}/`),
  ]);
  const cookieOf = (mode: string) =>
    new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['ref-servers.mjs', 'cookie', mode], {
        cwd: REF_DIR,
        env: { ...env, ...refEnv },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', () => resolve(out.trim()));
    });
  const { cookie, userId } = await seedOurs(db);
  const servers = [
    { name: 'ours', port: OURS, cookie },
    { name: 'express', port: EXPRESS, cookie: await cookieOf('express') },
    { name: 'bare', port: BARE, cookie: await cookieOf('bare') },
  ];
  console.log(
    `PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per server, alternating; median requests/s`,
  );
  for (const [url, etag] of [
    ['/api/user/status', false],
    ['/api/video-generation', true],
  ] as const) {
    const results = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    const statuses = new Map<string, Record<string, number>>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const server of servers) {
        const result = await load(server.port, url, server.cookie, etag);
        results.get(server.name)?.push(result.rps);
        statuses.set(server.name, result.statuses);
      }
    }
    const m = (name: string) => median(results.get(name) ?? []);
    console.log(`\n${url}${etag ? ' (If-None-Match after the first answer)' : ''}`);
    for (const server of servers)
      console.log(
        `  ${server.name.padEnd(8)} ${m(server.name).toFixed(0).padStart(6)} req/s  statuses ${JSON.stringify(statuses.get(server.name))}`,
      );
    console.log(
      `  ours/express ${(m('ours') / m('express')).toFixed(2)}x   ours/bare ${(m('ours') / m('bare')).toFixed(2)}x`,
    );
  }
  const latencies = await progressLatency(db, cookie, userId);
  const p = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * q) / 100))]?.toFixed(1);
  console.log(
    `\nprogress write (this process) -> event on the web process's stream, 100 updates: p50 ${p(50)} ms, p95 ${p(95)} ms, max ${p(100)} ms`,
  );
  console.log(`\n${await manyStreams(db, ours.pid ?? 0)}`);
  await db.end();
  rmSync(dataDir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    stopChildren();
  });
