import { type ChildProcess, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createTestApp, injectJson, listenLocally, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { type FakeFal, startFakeFal } from '../../../tests/support/fake-fal';
import { type FakePushService, startFakePushService } from '../../../tests/support/fake-push-service';
import { makeMediaFixtures, probeBytes } from '../../../tests/support/media';
import { openSse } from '../../../tests/support/sse-client';
import type { GenerationRecord } from '../../shared/generations';
import type { NotificationSettings } from '../../shared/notifications';
import type { CredentialsReport } from '../../shared/provenance';
import { readEnv } from '../config';
import { creditLedger, type GenerationRow, generations, installationSettings, users } from '../db/schema';
import { videoSigner } from '../modules/provenance/provenance.service';
import { readCredentials } from '../provenance/c2pa';

const MAIN = path.resolve(import.meta.dirname, '../main.ts');
const FAL_SAVED_KEY = 'fal-saved-in-the-browser-0042';

/** Waits for a condition (a line a process printed), saying what was printed if it never comes. */
async function waitFor(condition: () => boolean, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; output: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Every process `pid` started, and every one those started, read from /proc (Linux, where these tests
 * run; elsewhere none). A worker runs FFmpeg in a process group of its own, so killing the worker
 * alone leaves its render running to the end.
 */
function descendantsOf(pid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    // The command name, in parentheses, may hold spaces: the state and the parent follow its last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const found: number[] = [];
  for (let next = [pid]; next.length > 0;) {
    next = next.flatMap((id) => children.get(id) ?? []);
    found.push(...next);
  }
  return found;
}

/** The PostgreSQL tried when DATABASE_URL is not set: the PG* variables, else postgres@127.0.0.1:5432/test. */
function localPostgresUrl(env: Record<string, string | undefined>): string {
  const url = new URL('postgres://localhost');
  url.username = env.PGUSER || 'postgres';
  url.port = env.PGPORT || '5432';
  url.pathname = `/${env.PGDATABASE || 'test'}`;
  const host = env.PGHOST || '127.0.0.1';
  if (host.startsWith('/'))
    url.searchParams.set('host', host); // a socket directory
  else url.hostname = host;
  return url.toString(); // a password comes from PGPASSWORD, read by the pg driver itself
}

/**
 * Where these tests find PostgreSQL, or why they are skipped. They run once per `vitest run`: in the
 * server-postgres leg when DATABASE_URL is set (the pglite leg leaves them to it), else in the
 * pglite leg on a local PostgreSQL, if one answers.
 */
async function findPostgres(
  env: Record<string, string | undefined>,
): Promise<{ url: string } | { skip: string; warn?: boolean }> {
  if (env.TEST_DB === 'postgres') return { url: env.DATABASE_URL ?? '' };
  if (env.DATABASE_URL) return { skip: 'DATABASE_URL is set: these run once, in the server-postgres leg' };
  const url = localPostgresUrl(env);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      skip: `need PostgreSQL: nothing answered at ${url} (${reason}); start one there, or set DATABASE_URL or PGHOST/PGPORT/PGUSER`,
      warn: true,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgres = await findPostgres(readEnv());

// Several worker processes share one database: PostgreSQL only (PGlite is single-process by design).
describe('worker processes', () => {
  if ('skip' in postgres) {
    it('share one PostgreSQL database', (ctx) => {
      // Said aloud (the default reporter hides skip notes): coverage is missing, not passing.
      if (postgres.warn) console.warn(`worker-process tests skipped: ${postgres.skip}`);
      ctx.skip(postgres.skip);
    });
    return;
  }
  let t: TestApp;
  let fal: FakeFal;
  let push: FakePushService;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    // The test app makes its fresh database where TEST_DB and DATABASE_URL say: on that PostgreSQL.
    vi.stubEnv('TEST_DB', 'postgres');
    vi.stubEnv('DATABASE_URL', postgres.url);
    fal = await startFakeFal((await makeMediaFixtures()).video, FAL_SAVED_KEY);
    fal.stepMs = 20;
    push = await startFakePushService();
    // fal.ai's addresses only (no key): an administrator connects it from the browser in one test.
    t = await createTestApp({ FAL_BASE_URL: fal.baseUrl, FAL_API_URL: fal.baseUrl, PUSH_ALLOWED_HOSTS: push.host });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t?.close();
    await fal?.close();
    await push?.close();
    vi.unstubAllEnvs();
  });

  function startWorkerProcess(env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--services=worker'], {
      env: {
        ...readEnv(),
        DATABASE_URL: t.testDb.url,
        DATA_DIR: t.dataDir,
        SESSION_SECRET: t.config.sessionSecret,
        PUBLIC_URL: t.config.publicUrl,
        WORKER_LEASE_SECONDS: '3',
        WORKER_POLL_MS: '100',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  async function waitForRow(
    id: string,
    ready: (row: GenerationRow) => boolean,
    timeoutMs = 90_000,
  ): Promise<GenerationRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
      if (row && ready(row)) return row;
      if (Date.now() > deadline) throw new Error(`timed out; row: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function startJob(prompt: string, shape: { duration: number; resolution?: '480p' | '720p' }) {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt, ...shape },
    });
    expect(response.statusCode).toBe(201);
    return { user, cookie, id: response.json<GenerationRecord>().id };
  }

  it(
    'finishes, in another worker, a job whose worker was killed mid-render, charging it once',
    { timeout: 120_000 },
    async () => {
      // Long enough to be killed mid-render; small, so the render after it is quick.
      const { user, cookie, id } = await startJob('A slow purple and gold aurora', {
        duration: 12,
        resolution: '480p',
      });
      // The web process has its signer before any worker process signs: they must agree on it.
      const webSigner = await videoSigner(t.ctx);
      const first = startWorkerProcess();
      const claimed = await waitForRow(id, (row) => row.status === 'processing' && row.progress >= 10);
      // Killed as a machine that stops takes its FFmpeg with it: the worker first (so it never sees
      // its render fail), then the render it had started, which would otherwise run on for seconds.
      const renders = descendantsOf(first.child.pid ?? 0);
      first.child.kill('SIGKILL');
      await first.exited;
      for (const pid of renders) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // It ended already.
        }
      }
      expect(claimed.status).toBe('processing');

      const second = startWorkerProcess();
      const done = await waitForRow(id, (row) => row.status === 'completed' || row.status === 'failed');
      expect(done.status).toBe('completed');
      expect(done.attempts).toBe(2);
      expect(done.leaseOwner).toBeNull();
      expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(1);
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths).toBe(0);

      const record = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<
        GenerationRecord[]
      >()[0];
      const video = await t.app.inject({ method: 'GET', url: record?.outputVideoUrl ?? '' });
      const info = await probeBytes(video.rawPayload);
      expect(info.video).toMatchObject({ codec: 'h264', width: 854, height: 480 });
      expect(Math.abs(info.durationSeconds - 12)).toBeLessThanOrEqual(0.2);

      // Signed in the worker process with the installation's one certificate, kept in PostgreSQL:
      // the web process trusts it as its own, and names the same signer.
      const checked = await t.app.inject({
        method: 'POST',
        url: '/api/provenance/verify',
        headers: { 'content-type': 'video/mp4', origin: t.config.publicUrl },
        payload: video.rawPayload,
      });
      expect(checked.json<CredentialsReport>()).toMatchObject({ hasCredentials: true, intact: true, trusted: true });
      const store = await readCredentials({ bytes: video.rawPayload }, 'video/mp4');
      const active = store?.manifests?.[store.active_manifest ?? ''] as {
        signature_info: { cert_serial_number: string };
      };
      const serial = new X509Certificate(webSigner.certificates[0] ?? Buffer.alloc(0)).serialNumber;
      expect(BigInt(active.signature_info.cert_serial_number)).toBe(BigInt(`0x${serial}`));
      expect(record?.credentials).toMatchObject({ intact: true, trusted: true });

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    },
  );

  it(
    "signs a worker process's notification with the key the browser subscribed with, whatever its data folder",
    { timeout: 180_000 },
    async () => {
      const user = await createUser(t.db, { creditsHundredths: 100 });
      const cookie = await signIn(t.app, user);
      // The browser subscribes through the web process, with the public key that process hands out.
      const browser = push.subscribe();
      const subscribed = await injectJson(t.app, 'POST', '/api/notifications/push-subscriptions', {
        cookie,
        body: browser.json,
      });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const publicKey = subscribed.json<NotificationSettings>().push.publicKey;
      const made = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A paper boat on a rainy street', duration: 2, resolution: '480p' },
      });
      expect(made.statusCode, made.body).toBe(201);

      // A worker in its own container: a data folder of its own, the installation's settings otherwise.
      const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-worker-data-'));
      onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
      const worker = startWorkerProcess({ DATA_DIR: dataDir, PUSH_ALLOWED_HOSTS: push.host });
      const [message] = await push.waitForMessages(1, 150_000);
      // The push service took it (it refuses a JWT that does not verify) and the browser decrypted it.
      expect(push.refused).toEqual([]);
      expect(message?.vapidKey).toBe(publicKey);
      expect(JSON.parse(message?.payload ?? '{}')).toMatchObject({ title: 'Your video is ready' });
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    },
  );

  it(
    'on SIGTERM stops claiming and hands back a job it cannot finish within its grace time',
    { timeout: 60_000 },
    async () => {
      // Long enough that it cannot finish within the one second of grace.
      const { id } = await startJob('A calm teal ocean at dawn', { duration: 20 });
      // The job handed back stays pending: out of the way afterwards, or the next test's worker would
      // claim it before its own job and render all twenty seconds of it first.
      onTestFinished(async () => {
        await t.db.update(generations).set({ status: 'failed' }).where(eq(generations.id, id));
      });
      const worker = startWorkerProcess({ WORKER_SHUTDOWN_GRACE_SECONDS: '1' });
      await waitForRow(id, (row) => row.status === 'processing' && row.progress >= 5);
      const signalled = Date.now();
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
      // Handed back untouched: pending, not counted as an attempt, ready for the next worker.
      expect(row).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null });
    },
  );

  it(
    "pushes a worker process's progress and completion to the owner's stream in the web process",
    // Each wait is for an event, with a ceiling a machine at load 7 stays well inside (a worker
    // process started through tsx took over a minute to show progress there once).
    { timeout: 330_000 },
    async () => {
      const base = await listenLocally(t);
      const user = await createUser(t.db, { creditsHundredths: 100 });
      const cookie = await signIn(t.app, user);
      const events = await openSse(base, cookie);
      await events.next((e) => e.event === 'snapshot');
      const response = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        // Short and small: the stream's events are the subject, not the render (which reports
        // progress at most once a second, so even two seconds of video show a stage between the ends).
        body: { prompt: 'A glass city at dusk', duration: 2, resolution: '480p' },
      });
      const { id } = response.json<GenerationRecord>();
      const worker = startWorkerProcess();
      const isOurs = (data: unknown): data is GenerationRecord => (data as GenerationRecord).id === id;
      // A wait that ends without its event says what the worker process printed.
      const withWorkerOutput = <T>(waiting: Promise<T>) =>
        waiting.catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}\nworker: ${worker.output()}`);
        });
      await withWorkerOutput(
        events.next(
          (e) =>
            e.event === 'generation' &&
            isOurs(e.data) &&
            e.data.status === 'processing' &&
            e.data.progress > 0 &&
            e.data.progress < 100,
          150_000,
        ),
      );
      const done = await withWorkerOutput(
        events.next((e) => e.event === 'generation' && isOurs(e.data) && e.data.status === 'completed', 150_000),
      );
      expect((done.data as GenerationRecord).outputVideoUrl).toMatch(/^\/api\/media\//);
      const stages = events.events
        .filter((e) => e.event === 'generation' && isOurs(e.data))
        .map((e) => (e.data as GenerationRecord).progress);
      expect(stages.length).toBeGreaterThan(2);
      events.close();
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    },
  );
  it(
    'renders with a provider key an administrator saved after the worker process started, with no restart',
    { timeout: 120_000 },
    async () => {
      // A job an earlier test handed back is not this test's: it would be claimed first.
      await t.db.update(generations).set({ status: 'failed' }).where(eq(generations.status, 'pending'));
      const worker = startWorkerProcess({
        FAL_BASE_URL: fal.baseUrl,
        FAL_API_URL: fal.baseUrl,
        PROVIDER_POLL_SECONDS: '0.05',
        LOG_LEVEL: 'info',
      });
      await waitFor(() => worker.output().includes('Reelsmith worker is running'), worker.output);
      expect(worker.output()).not.toContain('fal-veo3');

      const admin = await signIn(t.app, await createUser(t.db, { isAdmin: true }));
      // Disconnected again at the end: a fal model would otherwise be the default of the tests after.
      onTestFinished(async () => {
        await injectJson(t.app, 'DELETE', '/api/admin/settings/providers/fal', { cookie: admin });
      });
      const saved = await injectJson(t.app, 'PUT', '/api/admin/settings/providers', {
        cookie: admin,
        body: { provider: 'fal', apiKey: FAL_SAVED_KEY },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const [row] = await t.db.select().from(installationSettings);
      expect(row?.sealed).not.toContain(FAL_SAVED_KEY);

      const user = await createUser(t.db, { creditsHundredths: 10_000 });
      const cookie = await signIn(t.app, user);
      const response = await injectJson(t.app, 'POST', '/api/video-generation', {
        cookie,
        body: { prompt: 'A lighthouse in a storm', model: 'fal-veo3', duration: 8 },
      });
      expect(response.statusCode, response.body).toBe(201);
      const { id } = response.json<GenerationRecord>();
      const done = await waitForRow(id, (r) => r.status === 'completed' || r.status === 'failed');
      expect(done, worker.output()).toMatchObject({ status: 'completed', model: 'fal-veo3' });
      // Made by fal.ai, asked by the worker process with the key saved in the browser.
      expect(fal.requests.map((r) => r.endpoint)).toEqual(['fal-ai/veo3']);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    },
  );
});
