// The job queue at scale (issue 32): 5,000 pending jobs on PostgreSQL drained by 4 worker processes
// that do no work. Each worker process claims with the server's own claim (`claimNext` of
// src/server/jobs/queue.repository.ts, on the server's own database client), records how long each
// claim took, and marks the job done at once (as a job that finished in no time). Prints claims per
// second, claim latency (p50/p99/max), duplicates (a job claimed twice) and losses (a job never claimed).
// Target on a 2-core machine: at least 500 claims/s, 0 duplicates, 0 lost.
//
// PERF_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test names a server
// and a database to connect to; the bench creates its own fresh database there and drops it after.
// Options: --jobs N (5000), --workers N (4), --loops N claim loops per worker process (1, as
// WORKER_CONCURRENCY's default), --users N owners of the jobs (50).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readEnv } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { claimNext } from '../src/server/jobs/queue.repository';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const env = readEnv();
const LEASE_SECONDS = 60;

interface ChildResult {
  claimed: string[];
  latenciesMs: number[];
  firstAt: number;
  lastAt: number;
}

/** One worker process: waits for "go" on stdin, claims until the queue is empty, prints its result. */
async function child(url: string, loops: number): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: loops + 1 });
  const workerId = `${hostname()}:${process.pid}:bench`;
  const result: ChildResult = { claimed: [], latenciesMs: [], firstAt: 0, lastAt: 0 };
  await database.db.execute('SELECT 1'); // connect before the start
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  result.firstAt = Date.now();
  const loop = async () => {
    for (;;) {
      const started = performance.now();
      const job = await claimNext(database.db, workerId, LEASE_SECONDS);
      result.latenciesMs.push(performance.now() - started);
      if (!job) return;
      result.claimed.push(job.id);
      // No work: the job is done as soon as it is claimed.
      await database.query(
        `UPDATE generations SET status = 'completed', progress = 100, completed_at = now(), lease_owner = NULL,
           lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2`,
        [job.id, workerId],
      );
    }
  };
  await Promise.all(Array.from({ length: loops }, () => loop()));
  result.lastAt = Date.now();
  await database.close();
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function parent(): Promise<void> {
  const jobs = Number(option('jobs', '5000'));
  const workers = Number(option('workers', '4'));
  const loops = Number(option('loops', '1'));
  const userCount = Number(option('users', '50'));
  const adminUrl = env.PERF_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `reelsmith_bench_queue_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const children: ChildProcess[] = [];
  const step = (text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);
  try {
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
    await database.migrate();
    step('migrated');
    await database.query(
      `INSERT INTO users (email) SELECT 'bench-' || i || '@example.com' FROM generate_series(1, $1::int) AS i`,
      [userCount],
    );
    // Oldest first, owners taking turns, as many people's Generate clicks would arrive.
    await database.query(
      `INSERT INTO generations (user_id, prompt, model, requested_duration, has_audio, created_at, run_after)
       SELECT u.id, 'bench job ' || i, 'local-preview', 4, false,
              now() - make_interval(secs => ($1::int - i) / 1000.0), now() - interval '1 second'
       FROM generate_series(1, $1::int) AS i
       JOIN (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users) u ON u.n = i % $2::int`,
      [jobs, userCount],
    );
    await database.query('ANALYZE generations');
    await database.close();
    step(`${jobs} jobs enqueued`);

    const self = fileURLToPath(import.meta.url);
    const outputs: Promise<ChildResult>[] = [];
    const ready: Promise<void>[] = [];
    for (let i = 0; i < workers; i += 1) {
      const proc = spawn(
        process.execPath,
        [...process.execArgv, self, '--child', url.toString(), '--loops', String(loops)],
        {
          stdio: ['pipe', 'pipe', 'inherit'],
          env: { ...env, NODE_ENV: 'production' },
        },
      );
      children.push(proc);
      let buffer = '';
      let onReady: () => void = () => undefined;
      ready.push(new Promise<void>((resolve) => (onReady = resolve)));
      outputs.push(
        new Promise<ChildResult>((resolve, reject) => {
          proc.stdout?.on('data', (chunk: Buffer) => {
            buffer += chunk.toString();
            if (buffer.startsWith('ready\n')) {
              buffer = buffer.slice('ready\n'.length);
              onReady();
            }
          });
          proc.on('exit', (code) => {
            if (code !== 0) reject(new Error(`worker ${i} exited with ${code}`));
            else resolve(JSON.parse(buffer.trim()) as ChildResult);
          });
        }),
      );
    }
    await Promise.all(ready);
    step('workers ready');
    const started = Date.now();
    for (const proc of children) proc.stdin?.write('go\n');
    const results = await Promise.all(outputs);
    const finished = Math.max(...results.map((r) => r.lastAt));

    const seen = new Map<string, number>();
    for (const r of results) for (const id of r.claimed) seen.set(id, (seen.get(id) ?? 0) + 1);
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    const [left] = await withClient(url.toString(), async (c) => {
      const all = await c.query<{ id: string; status: string }>('SELECT id, status FROM generations');
      const lost = all.rows.filter((r) => !seen.has(r.id)).length;
      const notDone = all.rows.filter((r) => r.status !== 'completed').length;
      return [{ lost, notDone, total: all.rows.length }];
    });
    const claims = results.reduce((sum, r) => sum + r.claimed.length, 0);
    const latencies = results.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    const seconds = (finished - started) / 1000;
    const rate = claims / seconds;
    console.log(
      `queue: ${left?.total} jobs, ${workers} worker processes x ${loops} claim loop(s), PostgreSQL ${await withClient(
        url.toString(),
        async (c) => (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v,
      )}`,
    );
    console.log(`  claims/s        ${rate.toFixed(0)} (${claims} claims in ${seconds.toFixed(2)} s)`);
    console.log(
      `  claim latency   p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms, max ${(latencies.at(-1) ?? 0).toFixed(2)} ms`,
    );
    console.log(`  per worker      ${results.map((r) => r.claimed.length).join(', ')} claims`);
    console.log(`  duplicates      ${duplicates}`);
    console.log(`  lost            ${left?.lost} (never claimed), ${left?.notDone} not completed`);
    const ok = rate >= 500 && duplicates === 0 && left?.lost === 0;
    console.log(`  target          >= 500 claims/s, 0 duplicates, 0 lost: ${ok ? 'met' : 'NOT met'}`);
    process.exitCode = duplicates === 0 && left?.lost === 0 ? 0 : 1;
  } finally {
    for (const proc of children) if (proc.exitCode === null) proc.kill('SIGKILL');
    await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

if (process.argv.includes('--child')) {
  const index = process.argv.indexOf('--child');
  await child(process.argv[index + 1] ?? '', Number(option('loops', '1')));
} else {
  await parent();
}
