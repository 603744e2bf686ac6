// The charged create (POST /api/video-generation), measured side by side with the reference servers
// (issue 28): 300 users x 3 creates each (the unfinished-jobs limit), 32 connections, driven by wrk and
// ../shared/bench/create.lua against our built server (started with --services=web, so jobs stay
// pending), an Express 5 + express-session + passport server and a bare node:http + pg server
// (../shared/bench/ref-servers.mjs), all on one PostgreSQL database. Every round reseeds every server
// (fresh balances, no generations) before it runs; rounds alternate between the three servers and the
// median of each figure is reported, with the ratios ours/express and ours/bare.
// Needs: `npm run build:server`, PostgreSQL, wrk, and the reference servers installed in a writable copy:
//   cp -r ../shared/bench /tmp/refbench && chmod -R u+w /tmp/refbench && (cd /tmp/refbench && npm install)
// Options: --ref-dir DIR (/tmp/refbench), --server FILE (dist/server/main.js), --profile DIR, --rounds N (3), --users N (300), --per-user N (3), --connections N (32).
// PERF_DATABASE_URL (postgres://postgres@127.0.0.1:5432/perf) names the database; create it first. Its
// public schema is dropped and made again for our server; the reference servers use the schema "ref".
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { readEnv } from '../src/server/config';
import { option, start, stopChildren, waitFor } from './support';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

const run = promisify(execFile);
const env = readEnv();
const DATABASE_URL = env.PERF_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/perf';
const REF_DIR = option('ref-dir', '/tmp/refbench');
const SERVER = option('server', 'dist/server/main.js');
const PROFILE = option('profile', '');
const ROUNDS = Number(option('rounds', '3'));
const USERS = Number(option('users', '300'));
const PER_USER = Number(option('per-user', '3'));
const CONNECTIONS = Number(option('connections', '32'));
const OURS = 3921;
const EXPRESS = 3922;
const BARE = 3923;
const refEnv = { ...env, PERF_DATABASE_URL: DATABASE_URL };

const startWith = (command: string, args: string[], extraEnv: Record<string, string>, cwd?: string) =>
  start(command, args, { ...env, ...extraEnv }, cwd);

const refServers = (...args: string[]) =>
  run(process.execPath, ['ref-servers.mjs', ...args], { cwd: REF_DIR, env: refEnv, maxBuffer: 16 << 20 });

/** Our load users (made once, with a 30-day session each): answers their Cookie headers. */
async function makeOurUsers(db: pg.Client): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 1; i <= USERS; i += 1) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name) VALUES ($1, 'Load') RETURNING id`,
      [`load${i}@example.test`],
    );
    const token = randomBytes(32).toString('base64url');
    await db.query(`INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '30 days')`, [
      createHash('sha256').update(token).digest('base64url'),
      rows[0]?.id,
    ]);
    cookies.push(`rs_session=${token}`);
  }
  return cookies;
}

/** Before each of our rounds: no generations, 10 credits each, nothing in the ledgers or the event log. */
async function reseedOurs(db: pg.Client): Promise<void> {
  await db.query(`DELETE FROM generations; DELETE FROM credit_ledger; DELETE FROM allowance_ledger; DELETE FROM live_events;
    UPDATE users SET credits_hundredths = 1000, credits_used_hundredths = 0; ANALYZE users; ANALYZE generations; ANALYZE sessions`);
}

interface Figures {
  rps: number;
  /** CPU time per create (ms): the server process and its database backends, read from /proc around the run. */
  cpuMs: number;
  /** The server process's share of it. */
  serverCpuMs: number;
  non201: number;
  p99: number;
  codes: string;
}

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s (USER_HZ) on Linux

/** CPU ticks (user + system) a process has used so far; 0 when it has gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU ticks used so far by one server process and by each backend of the bench's database, by pid. */
async function serverAndDatabaseTicks(
  db: pg.Client,
  serverPid: number,
): Promise<{ server: number; database: Map<number, number> }> {
  const { rows } = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return { server: cpuTicks(serverPid), database: new Map(rows.map((row) => [row.pid, cpuTicks(row.pid)])) };
}

/** What the backends used between two readings: a backend that ended meanwhile is left out (its last figure is lost). */
function databaseTicksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) if (now > 0) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

async function drive(db: pg.Client, serverPid: number, port: number, cookieFile: string): Promise<Figures> {
  const url = `http://127.0.0.1:${port}`;
  const ticksBefore = await serverAndDatabaseTicks(db, serverPid);
  const { stdout } = await run(
    'wrk',
    [
      '-t1',
      `-c${CONNECTIONS}`,
      '-d120s',
      '-s',
      path.join(REF_DIR, 'create.lua'),
      `${url}/api/video-generation`,
      '--',
      cookieFile,
      String(PER_USER),
      url,
    ],
    {
      maxBuffer: 16 << 20,
    },
  );
  const line = /requests (\d+) seconds ([\d.]+) rps (\d+) non201 (\d+) p99ms ([\d.]+) codes (\S+)/.exec(stdout);
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const ticksAfter = await serverAndDatabaseTicks(db, serverPid);
  const perCreate = (ticks: number) => (ticks * TICK_MS) / Number(line[1]);
  const serverCpuMs = perCreate(ticksAfter.server - ticksBefore.server);
  const cpuMs = serverCpuMs + perCreate(databaseTicksBetween(ticksBefore.database, ticksAfter.database));
  return {
    rps: Number(line[3]),
    cpuMs,
    serverCpuMs,
    non201: Number(line[4]),
    p99: Number(line[5]),
    codes: line[6] ?? '-',
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE');
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-bench-create-'));
  // --profile DIR: our server writes a CPU profile there when it stops (open it in Chrome's DevTools).
  const ours = startWith(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []), SERVER, '--services=web'],
    {
      DATABASE_URL,
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(OURS),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${OURS}`,
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
      NODE_ENV: 'production',
    },
  );
  await refServers('seed', String(USERS));
  const express = startWith(process.execPath, ['ref-servers.mjs', 'express', String(EXPRESS)], refEnv, REF_DIR);
  const bare = startWith(process.execPath, ['ref-servers.mjs', 'bare', String(BARE)], refEnv, REF_DIR);
  await Promise.all([
    waitFor(`http://127.0.0.1:${OURS}/healthz`),
    waitFor(`http://127.0.0.1:${EXPRESS}/`),
    waitFor(`http://127.0.0.1:${BARE}/`),
  ]);

  const cookieFiles = {
    ours: path.join(dir, 'ours.txt'),
    express: path.join(dir, 'express.txt'),
    bare: path.join(dir, 'bare.txt'),
  };
  writeFileSync(cookieFiles.ours, `${(await makeOurUsers(db)).join('\n')}\n`);
  writeFileSync(cookieFiles.express, (await refServers('cookies', 'express', String(USERS))).stdout);
  writeFileSync(cookieFiles.bare, (await refServers('cookies', 'bare', String(USERS))).stdout);
  const servers = [
    { name: 'ours', pid: ours.pid ?? 0, port: OURS, reseed: () => reseedOurs(db) },
    { name: 'express', pid: express.pid ?? 0, port: EXPRESS, reseed: () => refServers('seed', String(USERS)) },
    { name: 'bare', pid: bare.pid ?? 0, port: BARE, reseed: () => refServers('seed', String(USERS)) },
  ] as const;

  console.log(
    `POST /api/video-generation on PostgreSQL: ${USERS} users x ${PER_USER} creates, ${CONNECTIONS} connections, ${ROUNDS} rounds alternating, reseeded before each`,
  );
  const results = new Map<string, Figures[]>(servers.map((s) => [s.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const server of servers) {
      await server.reseed();
      const figures = await drive(db, server.pid, server.port, cookieFiles[server.name]);
      results.get(server.name)?.push(figures);
      console.log(
        `  round ${round} ${server.name.padEnd(8)} ${String(figures.rps).padStart(6)} req/s  ${figures.cpuMs.toFixed(2)} CPU ms/create (server ${figures.serverCpuMs.toFixed(2)})  non-201 ${figures.non201}  p99 ${figures.p99} ms  codes ${figures.codes}`,
      );
    }
  }
  const rps = (name: string) => median((results.get(name) ?? []).map((f) => f.rps));
  const cpu = (name: string) => median((results.get(name) ?? []).map((f) => f.cpuMs));
  console.log('\nmedian of the rounds');
  for (const server of servers) {
    const all = results.get(server.name) ?? [];
    const non201 = all.reduce((sum, f) => sum + f.non201, 0);
    console.log(
      `  ${server.name.padEnd(8)} ${rps(server.name).toFixed(0).padStart(6)} req/s  ${cpu(server.name).toFixed(2)} CPU ms/create  non-201 ${non201} (all rounds)  p99 ${median(all.map((f) => f.p99)).toFixed(1)} ms`,
    );
  }
  console.log(
    `  ours/express ${(rps('ours') / rps('express')).toFixed(2)}x   ours/bare ${(rps('ours') / rps('bare')).toFixed(2)}x`,
  );
  console.log(
    `  CPU per create (server + its database backends): ours/express ${(cpu('ours') / cpu('express')).toFixed(2)}x   ours/bare ${(cpu('ours') / cpu('bare')).toFixed(2)}x`,
  );
  await db.end();
  rmSync(dir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    stopChildren();
  });
