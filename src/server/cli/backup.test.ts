import { type ChildProcess, spawn } from 'node:child_process';
import { startTestWorker } from '../../../tests/support/pipeline';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectJson, sessionCookieFrom } from '../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../tests/support/factories';
import type { GenerationRecord } from '../../shared/generations';
import { buildApp } from '../app';
import { loadConfig, readEnv } from '../config';
import { createServiceContext } from '../context';
import { type Database, openDatabase } from '../db/client';
import { listTables, tableRows } from '../db/transfer';
import { main } from './admin';
import type { BackupManifest } from './backup';

const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/astronaut.png'));
const testEnv = readEnv();
// Both legs would do the same work on disk: these run once, in the PGlite leg.
const onPostgres = testEnv.TEST_DB === 'postgres';

const temporary: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

function envFor(dataDir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  // No SESSION_SECRET: the installation keeps its own in DATA_DIR, as a real one does.
  return { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PATH: testEnv.PATH, ...extra };
}

/** `npm run admin -- ...args` in this process, with the given environment. */
async function cli(env: Record<string, string | undefined>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

interface Installation {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/** The real server on a data directory (PGlite in DATA_DIR/db, or DATABASE_URL), as main.ts builds it. */
async function startInstallation(env: Record<string, string | undefined>, withWorker = false): Promise<Installation> {
  const config = loadConfig({ ...env, CLIENT_DIR: path.join(tmpdir(), 'reelsmith-no-client') });
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: 3 }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
  );
  await database.migrate();
  const ctx = createServiceContext(config, database);
  const app = await buildApp(ctx);
  await app.ready();
  const worker = withWorker ? startTestWorker({ ctx, app }) : undefined;
  return {
    app,
    database,
    close: async () => {
      await worker?.stop(1000);
      await app.close();
      await database.close();
    },
  };
}

/** Every row of every table, as PostgreSQL's JSON text, sorted: two equal databases give equal answers. */
async function allRows(database: Database): Promise<Record<string, string[]>> {
  await database.query(`SET TIME ZONE 'UTC'`);
  const result: Record<string, string[]> = {};
  for (const table of await listTables(database.query)) {
    const rows: string[] = [];
    for await (const page of tableRows(database.query, table)) rows.push(...page);
    result[table.name] = rows.sort();
  }
  return result;
}

function fileHashes(root: string, skip = ['db']): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const rel = path.join(relative, entry.name);
      if (skip.includes(rel) || rel === path.join('objects', '.partial')) continue;
      if (entry.isDirectory()) walk(rel);
      else
        hashes[rel] = createHash('sha256')
          .update(readFileSync(path.join(root, rel)))
          .digest('hex');
    }
  };
  walk('');
  return hashes;
}

interface Made {
  admin: { email: string; password: string; cookie: string };
  buyer: { email: string; password: string; cookie: string };
  video: GenerationRecord;
  videoBytes: Buffer;
}

/** An installation with users, balances, an upload and a finished video, made through the real app. */
async function makeInstallation(dataDir: string): Promise<Made> {
  const inst = await startInstallation(envFor(dataDir), true);
  try {
    const register = await injectJson(inst.app, 'POST', '/api/auth/register', {
      body: { email: 'owner@example.com', password: 'correct horse battery', firstName: 'Olu' },
    });
    expect(register.statusCode, register.body).toBeLessThan(300);
    const adminCookie = sessionCookieFrom(register);
    const user = await createUser(inst.database.db, { email: 'buyer@example.com', creditsHundredths: 0 });
    const buyerCookie = await signIn(inst.app, user);
    const imageFile = await uploadFile(inst.app, buyerCookie, ASTRONAUT);
    const started = await injectJson(inst.app, 'POST', '/api/video-generation', {
      cookie: adminCookie,
      body: { prompt: 'Slowly zoom in on the astronaut', hasAudio: false, isEconomy: true, duration: 4 },
    });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json<GenerationRecord>().id;
    const deadline = Date.now() + 60_000;
    let video: GenerationRecord | undefined;
    while (!video) {
      const records = (await injectJson(inst.app, 'GET', '/api/video-generation', { cookie: adminCookie })).json<
        GenerationRecord[]
      >();
      const record = records.find((r) => r.id === id);
      if (record?.status === 'completed') video = record;
      else if (record?.status === 'failed') throw new Error(`generation failed: ${JSON.stringify(record)}`);
      else if (Date.now() > deadline) throw new Error('generation did not finish in time');
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const download = await inst.app.inject({ method: 'GET', url: video.outputVideoUrl ?? '' });
    expect(download.statusCode).toBe(200);
    expect(imageFile).toBeTruthy();
    return {
      admin: { email: 'owner@example.com', password: 'correct horse battery', cookie: adminCookie },
      buyer: { email: user.email, password: user.password, cookie: buyerCookie },
      video,
      videoBytes: download.rawPayload,
    };
  } finally {
    await inst.close();
  }
}

let source: string;
let made: Made;

beforeAll(async () => {
  if (onPostgres) return;
  source = tempDir('reelsmith-installation-');
  made = await makeInstallation(source);
  // A grant through the operator's command line: a second ledger row, on the closed installation.
  const grant = await cli(envFor(source), 'grant-credits', 'buyer@example.com', '7.25');
  expect(grant.stderr).toBe('');
}, 120_000);

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(onPostgres)('npm run admin -- backup / restore', () => {
  it('restores a backup identical to the installation, row by row and file by file, and it serves', async () => {
    const before = await startInstallation(envFor(source));
    const rowsBefore = await allRows(before.database);
    await before.close();
    const filesBefore = fileHashes(source);
    expect(Object.keys(filesBefore).some((f) => f.startsWith('objects'))).toBe(true);
    expect(filesBefore['session-secret']).toBeTruthy();
    expect(rowsBefore.sessions?.length).toBeGreaterThanOrEqual(2);
    expect(rowsBefore.generations?.length).toBe(1);

    const backupDir = path.join(tempDir('reelsmith-backups-'), 'monday');
    const made1 = await cli(envFor(source), 'backup', backupDir);
    expect(made1.stderr).toBe('');
    expect(made1.code).toBe(0);
    expect(made1.stdout).toMatch(/^Backed up \d+ tables \(\d+ rows\) and \d+ files \(\d+ bytes\) to /);
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest.database.tables.users?.rows).toBe(2);
    expect(manifest.files.map((f) => f.path).sort()).toEqual(
      Object.keys(filesBefore)
        .map((f) => f.split(path.sep).join('/'))
        .sort(),
    );

    const target = tempDir('reelsmith-restored-');
    const restored = await cli(envFor(target), 'restore', backupDir);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('every table and file matches the backup');

    expect(fileHashes(target)).toEqual(filesBefore);
    const after = await startInstallation(envFor(target));
    try {
      expect(await allRows(after.database)).toEqual(rowsBefore);
      // The same people, still signed in (sessions and the secret came back), with the same video.
      const me = await injectJson(after.app, 'GET', '/api/auth/user', { cookie: made.buyer.cookie });
      expect(me.statusCode).toBe(200);
      const balance = await injectJson(after.app, 'GET', '/api/credits/balance', { cookie: made.buyer.cookie });
      expect(balance.json()).toMatchObject({ credits: 7.25 });
      const videos = (await injectJson(after.app, 'GET', '/api/video-generation', { cookie: made.admin.cookie })).json<
        GenerationRecord[]
      >();
      expect(videos.map((v) => [v.id, v.status])).toEqual([[made.video.id, 'completed']]);
      const video = await after.app.inject({ method: 'GET', url: videos[0]?.outputVideoUrl ?? '' });
      expect(video.statusCode).toBe(200);
      expect(video.rawPayload.equals(made.videoBytes)).toBe(true);
    } finally {
      await after.close();
    }

    // A data directory with an installation in it is replaced only on request.
    const again = await cli(envFor(target), 'restore', backupDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty. Restoring replaces everything in it: add --force');
    writeFileSync(path.join(target, 'objects', 'stray-file'), 'not in the backup');
    const forced = await cli(envFor(target), 'restore', backupDir, '--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(fileHashes(target)).toEqual(filesBefore);
  }, 120_000);

  it('refuses a damaged backup before writing anything', async () => {
    const backupDir = path.join(tempDir('reelsmith-backups-'), 'b');
    expect((await cli(envFor(source), 'backup', backupDir)).code).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
    const object = path.join(backupDir, 'files', ...String(manifest.files[0]?.path).split('/'));
    writeFileSync(object, Buffer.concat([readFileSync(object), Buffer.from('x')]));
    const target = tempDir('reelsmith-restored-');
    const result = await cli(envFor(target), 'restore', backupDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not match its checksum: the backup is damaged.');
    expect(readdirSync(target).filter((n) => n !== 'session-secret')).toEqual([]);
  }, 60_000);

  it('refuses while a server holds the embedded database, and into a folder that is not empty', async () => {
    const server: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      // The lock a running server leaves in DATA_DIR/db (its pid): the command line must not copy under it.
      writeFileSync(path.join(source, 'db', 'reelsmith.lock'), String(server.pid));
      const backupDir = path.join(tempDir('reelsmith-backups-'), 'c');
      const result = await cli(envFor(source), 'backup', backupDir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`is in use by process ${server.pid}. Stop that process first`);
      expect(existsSync(path.join(backupDir, 'manifest.json'))).toBe(false);
    } finally {
      server.kill('SIGKILL');
      rmSync(path.join(source, 'db', 'reelsmith.lock'), { force: true });
    }
    const full = tempDir('reelsmith-backups-');
    writeFileSync(path.join(full, 'other'), 'x');
    const result = await cli(envFor(source), 'backup', full);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not empty: give a new or empty folder.');
  });

  it('says what to use instead with PostgreSQL or S3, and writes nothing', async () => {
    const backupDir = path.join(tempDir('reelsmith-backups-'), 'd');
    const onPg = await cli(envFor(source, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }), 'backup', backupDir);
    expect(onPg.code).toBe(1);
    expect(onPg.stderr).toContain('back it up with pg_dump');
    const onS3 = await cli(envFor(source, { S3_BUCKET: 'videos' }), 'backup', backupDir);
    expect(onS3.code).toBe(1);
    expect(onS3.stderr).toContain("turn on the bucket's versioning");
    expect(existsSync(backupDir)).toBe(false);
  });
});

/** A PostgreSQL server to make databases on: DATABASE_URL, else the local one the worker-process tests use. */
async function findPostgres(): Promise<string | undefined> {
  const url = testEnv.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
const adminUrl = onPostgres ? undefined : await findPostgres();

describe.skipIf(onPostgres || !adminUrl)('npm run admin -- move-to-postgres', () => {
  const name = `reelsmith_move_${Date.now()}_${randomBytes(3).toString('hex')}`;
  let targetUrl: string;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl ?? '');
    url.pathname = `/${name}`;
    targetUrl = url.toString();
  });
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('moves every table, and the installation started with DATABASE_URL serves the same users, balances and videos', async () => {
    const embedded = await startInstallation(envFor(source));
    const rowsBefore = await allRows(embedded.database);
    await embedded.close();

    const moved = await cli(envFor(source), 'move-to-postgres', targetUrl);
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`DATABASE_URL=${targetUrl}\n`);
    expect(moved.stdout).toContain(`DATA_DIR=${source}\n`);
    expect(moved.stdout).toMatch(
      /every table's rows match, and so do the balances \(8\.25 credits in all\) and the ledgers \(8\.25 credits/,
    );

    const onPostgresNow = await startInstallation(envFor(source, { DATABASE_URL: targetUrl }));
    try {
      expect(onPostgresNow.database.kind).toBe('postgres');
      expect(await allRows(onPostgresNow.database)).toEqual(rowsBefore);
      // Signed-in sessions carried over; a fresh password sign-in works too.
      const me = await injectJson(onPostgresNow.app, 'GET', '/api/auth/user', { cookie: made.buyer.cookie });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: 'buyer@example.com' });
      const cookie = await signIn(onPostgresNow.app, made.buyer);
      const balance = await injectJson(onPostgresNow.app, 'GET', '/api/credits/balance', { cookie });
      expect(balance.json()).toMatchObject({ credits: 7.25 });
      const ownerCookie = await signIn(onPostgresNow.app, made.admin);
      const videos = (
        await injectJson(onPostgresNow.app, 'GET', '/api/video-generation', { cookie: ownerCookie })
      ).json<GenerationRecord[]>();
      expect(videos.map((v) => [v.id, v.status, v.prompt])).toEqual([[made.video.id, 'completed', made.video.prompt]]);
      const video = await onPostgresNow.app.inject({ method: 'GET', url: videos[0]?.outputVideoUrl ?? '' });
      expect(video.statusCode).toBe(200);
      expect(video.rawPayload.equals(made.videoBytes)).toBe(true);
      // The sequences moved past the copied rows: new live events still get fresh ids.
      const newUser = await injectJson(onPostgresNow.app, 'POST', '/api/auth/register', {
        body: { email: 'after-move@example.com', password: 'correct horse battery', firstName: 'Ada' },
      });
      expect(newUser.statusCode, newUser.body).toBeLessThan(300);
      const started = await injectJson(onPostgresNow.app, 'POST', '/api/video-generation', {
        cookie: sessionCookieFrom(newUser),
        body: { prompt: 'A red kite', hasAudio: false, isEconomy: true, duration: 4 },
      });
      expect(started.statusCode, started.body).toBe(201);
      const liveEvents = await onPostgresNow.database.query('SELECT count(*)::int AS n FROM live_events');
      expect(liveEvents[0]?.n).toBeGreaterThan(rowsBefore.live_events?.length ?? 0);
      expect(rowsBefore.live_events?.length).toBeGreaterThan(0);
    } finally {
      await onPostgresNow.close();
    }

    // The target now holds data: a second move is refused and changes nothing.
    const again = await cli(envFor(source), 'move-to-postgres', targetUrl);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty \(rows in .*users/);
  }, 120_000);
});
