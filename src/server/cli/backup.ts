import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { toCredits } from '../../shared/money/credits';
import type { Config } from '../config';
import { openDatabase, unpackPgliteDataDir } from '../db/client';
import { acquirePgliteLock } from '../db/pglite-lock';
import {
  copyTables,
  listTables,
  moneySums,
  nonEmptyTables,
  type RunSql,
  summarizeTables,
  type TableSummary,
} from '../db/transfer';

/**
 * The operator's backup, restore and move to PostgreSQL (`npm run admin -- backup DIR`,
 * `restore DIR [--force]`, `move-to-postgres <DATABASE_URL>`): an embedded installation (PGlite
 * in DATA_DIR/db, files on local disk under DATA_DIR) copied whole while no server holds it.
 */

/** A refusal the operator can act on: printed as it is, exit code 1. */
export class OperatorError extends Error {}

const MANIFEST = 'manifest.json';
const DATABASE_FILE = 'database.tar.gz';
const FILES_FOLDER = 'files';
const FORMAT = 'reelsmith-backup';

interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  database: {
    kind: 'pglite';
    file: string;
    bytes: number;
    sha256: string;
    /** Migrations applied when the copy was made (the server applies newer ones at start). */
    migrations: number;
    tables: Record<string, TableSummary>;
  };
  files: FileEntry[];
  totals: { tables: number; rows: number; files: number; fileBytes: number };
}

/** Where an embedded installation's database lives, and the entries of DATA_DIR that are not files to keep. */
const dbDirOf = (config: Config) => path.join(config.dataDir, 'db');
/** Half-written objects of a process that died: never part of a copy. */
const SKIPPED = new Set(['db', path.join('objects', '.partial')]);

function refuseOutsideEmbedded(config: Config, action: 'backup' | 'restore'): void {
  const advice: string[] = [];
  if (config.databaseUrl)
    advice.push(
      action === 'backup'
        ? 'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump (e.g. `pg_dump --format=custom --file=reelsmith.dump "$DATABASE_URL"`), or your provider\'s snapshots.'
        : 'The database is PostgreSQL (DATABASE_URL): restore a pg_dump copy with pg_restore (e.g. `pg_restore --clean --if-exists --dbname="$DATABASE_URL" reelsmith.dump`).',
    );
  if (config.s3)
    advice.push(
      `Files are in the S3 bucket ${config.s3.bucket}: turn on the bucket's versioning (and replication or your provider's backups); objects are not copied by this command.`,
    );
  if (advice.length > 0)
    throw new OperatorError(
      [`This command ${action}s an embedded installation only (PGlite and files under DATA_DIR).`, ...advice].join(
        '\n',
      ),
    );
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `root`, as paths relative to it with '/' separators, leaving out `skipped`. */
async function listFiles(root: string, skipped: Set<string>, relative = ''): Promise<string[]> {
  const found: string[] = [];
  let entries;
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = relative ? path.join(relative, entry.name) : entry.name;
    if (skipped.has(rel)) continue;
    if (entry.isDirectory()) found.push(...(await listFiles(root, skipped, rel)));
    else if (entry.isFile()) found.push(rel.split(path.sep).join('/'));
  }
  return found;
}

async function isEmptyDir(dir: string, ignoring: string[] = []): Promise<boolean> {
  try {
    return (await readdir(dir)).every((name) => ignoring.includes(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

async function migrationsApplied(run: RunSql): Promise<number> {
  try {
    const [row] = await run('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    return Number(row?.n ?? 0);
  } catch {
    return 0;
  }
}

const totalRows = (tables: Record<string, TableSummary>) => Object.values(tables).reduce((sum, t) => sum + t.rows, 0);

/** `backup DIR`: the embedded database (PGlite's own tarball) and every stored file, with a manifest written last. */
export async function backup(config: Config, target: string | undefined): Promise<string> {
  if (!target) throw new OperatorError('Name the folder to write the backup to: npm run admin -- backup DIR');
  refuseOutsideEmbedded(config, 'backup');
  const dir = path.resolve(target);
  if (dir === config.dataDir || dir.startsWith(`${config.dataDir}${path.sep}`))
    throw new OperatorError(`Write the backup outside DATA_DIR (${config.dataDir}).`);
  if (!(await isEmptyDir(dir))) throw new OperatorError(`${dir} is not empty: give a new or empty folder.`);
  if (!existsSync(path.join(dbDirOf(config), 'PG_VERSION')))
    throw new OperatorError(`There is no embedded database in ${dbDirOf(config)} to back up.`);

  // Opening takes the data directory's lock: a running server (or another command) is refused here.
  const database = await openDatabase({ kind: 'pglite', dataDir: dbDirOf(config) });
  try {
    await mkdir(path.join(dir, FILES_FOLDER), { recursive: true });
    const tables = await summarizeTables(database.query);
    const migrations = await migrationsApplied(database.query);
    const tarball = Buffer.from(await (await database.dumpDataDir!()).arrayBuffer());
    await writeFile(path.join(dir, DATABASE_FILE), tarball);

    const files: FileEntry[] = [];
    for (const rel of await listFiles(config.dataDir, SKIPPED)) {
      const destination = path.join(dir, FILES_FOLDER, ...rel.split('/'));
      await mkdir(path.dirname(destination), { recursive: true });
      await copyFile(path.join(config.dataDir, ...rel.split('/')), destination);
      files.push({ path: rel, bytes: (await stat(destination)).size, sha256: await sha256File(destination) });
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      database: {
        kind: 'pglite',
        file: DATABASE_FILE,
        bytes: tarball.length,
        sha256: createHash('sha256').update(tarball).digest('hex'),
        migrations,
        tables,
      },
      files,
      totals: {
        tables: Object.keys(tables).length,
        rows: totalRows(tables),
        files: files.length,
        fileBytes: files.reduce((sum, f) => sum + f.bytes, 0),
      },
    };
    await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const { totals } = manifest;
    return `Backed up ${totals.tables} tables (${totals.rows} rows) and ${totals.files} files (${totals.fileBytes} bytes) to ${dir}.`;
  } finally {
    await database.close();
  }
}

async function readManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new OperatorError(`${dir} holds no readable ${MANIFEST}: not a finished backup.`);
  }
  if (manifest.format !== FORMAT || manifest.version !== 1 || manifest.database?.kind !== 'pglite')
    throw new OperatorError(`${dir}/${MANIFEST} is not a backup this version can restore.`);
  for (const file of manifest.files) {
    const parts = file.path.split('/');
    if (path.isAbsolute(file.path) || parts.some((p) => p === '..' || p === '' || p === '.') || parts[0] === 'db')
      throw new OperatorError(`${MANIFEST} names a file outside the data folder: ${file.path}`);
  }
  return manifest;
}

/** Differences between two sets of table summaries, as sentences. */
function tableDifferences(expected: Record<string, TableSummary>, actual: Record<string, TableSummary>): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const problems: string[] = [];
  for (const name of [...names].sort()) {
    const a = expected[name];
    const b = actual[name];
    if (!a || !b) problems.push(`table ${name}: ${a ? 'missing after the copy' : 'not in the original'}`);
    else if (a.rows !== b.rows) problems.push(`table ${name}: ${a.rows} rows expected, ${b.rows} found`);
    else if (a.sha256 !== b.sha256) problems.push(`table ${name}: same row count, different contents`);
  }
  return problems;
}

/** `restore DIR [--force]`: checks every checksum first, then brings the database and the files back. */
export async function restore(config: Config, source: string | undefined, force: boolean): Promise<string> {
  if (!source) throw new OperatorError('Name the backup folder to restore: npm run admin -- restore DIR');
  refuseOutsideEmbedded(config, 'restore');
  const dir = path.resolve(source);
  const manifest = await readManifest(dir);

  // Nothing is written before the whole backup is known to be intact.
  const tarballPath = path.join(dir, manifest.database.file);
  if (!existsSync(tarballPath) || (await sha256File(tarballPath)) !== manifest.database.sha256)
    throw new OperatorError(`${tarballPath} is missing or does not match its checksum: the backup is damaged.`);
  for (const file of manifest.files) {
    const copy = path.join(dir, FILES_FOLDER, ...file.path.split('/'));
    if (!existsSync(copy) || (await sha256File(copy)) !== file.sha256)
      throw new OperatorError(`${copy} is missing or does not match its checksum: the backup is damaged.`);
  }

  // The session secret alone is what reading the configuration creates in a new DATA_DIR.
  if (!force && !(await isEmptyDir(config.dataDir, ['session-secret'])))
    throw new OperatorError(
      `DATA_DIR (${config.dataDir}) is not empty. Restoring replaces everything in it: add --force to do so.`,
    );

  const dbDir = dbDirOf(config);
  await mkdir(dbDir, { recursive: true });
  // Held from the wipe to the end: a server starting meanwhile is refused.
  const release = acquirePgliteLock(dbDir);
  try {
    for (const name of await readdir(config.dataDir)) {
      if (name !== 'db') await rm(path.join(config.dataDir, name), { recursive: true, force: true });
    }
    for (const name of await readdir(dbDir)) {
      if (name !== 'reelsmith.lock') await rm(path.join(dbDir, name), { recursive: true, force: true });
    }
    await unpackPgliteDataDir(dbDir, new Blob([await readFile(tarballPath)]));
    for (const file of manifest.files) {
      const destination = path.join(config.dataDir, ...file.path.split('/'));
      await mkdir(path.dirname(destination), { recursive: true });
      await copyFile(path.join(dir, FILES_FOLDER, ...file.path.split('/')), destination);
    }
  } finally {
    release();
  }

  // Read back as the server will: every table and file must match the manifest.
  const database = await openDatabase({ kind: 'pglite', dataDir: dbDir });
  let problems: string[];
  try {
    problems = tableDifferences(manifest.database.tables, await summarizeTables(database.query));
  } finally {
    await database.close();
  }
  for (const file of manifest.files) {
    const restored = path.join(config.dataDir, ...file.path.split('/'));
    if ((await sha256File(restored)) !== file.sha256) problems.push(`file ${file.path}: different contents`);
  }
  if (problems.length > 0)
    throw new OperatorError(`The restored copy differs from the backup:\n  ${problems.join('\n  ')}`);
  const { totals } = manifest;
  return `Restored ${totals.tables} tables (${totals.rows} rows) and ${totals.files} files (${totals.fileBytes} bytes) from ${dir} into ${config.dataDir} (backup made ${manifest.createdAt}); every table and file matches the backup.`;
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * `move-to-postgres <DATABASE_URL>`: migrates an empty PostgreSQL database, copies every table of
 * the embedded one into it in one transaction, and commits only when every table's rows and
 * contents and every balance and ledger sum match.
 */
export async function moveToPostgres(config: Config, url: string | undefined): Promise<string> {
  if (!url || !/^postgres(ql)?:\/\//.test(url))
    throw new OperatorError('Give the PostgreSQL database to move to: npm run admin -- move-to-postgres postgres://…');
  if (config.databaseUrl)
    throw new OperatorError(
      'DATABASE_URL is set: this installation already runs on PostgreSQL. Unset it to move the embedded database in DATA_DIR.',
    );
  if (!existsSync(path.join(dbDirOf(config), 'PG_VERSION')))
    throw new OperatorError(`There is no embedded database in ${dbDirOf(config)} to move.`);

  const target = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await target.connect();
  } catch (error) {
    throw new OperatorError(
      `Could not connect to ${redacted(url)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const runTarget: RunSql = async (text, params) => (await target.query<Record<string, unknown>>(text, params)).rows;
  // Opening the embedded database takes its lock: a running server is refused here. It is brought to
  // the current schema, as the target is.
  const source = await openDatabase({ kind: 'pglite', dataDir: dbDirOf(config) });
  try {
    const occupied = await nonEmptyTables(runTarget);
    if (occupied.length > 0)
      throw new OperatorError(
        `${redacted(url)} is not empty (rows in ${occupied.join(', ')}): give an empty database (CREATE DATABASE reelsmith).`,
      );
    await source.migrate();
    const migrator = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    try {
      await migrator.migrate();
    } finally {
      await migrator.close();
    }

    const tables = await listTables(source.query);
    const expected = await summarizeTables(source.query, tables);
    const expectedMoney = await moneySums(source.query);
    await runTarget('BEGIN');
    try {
      // Another process writing meanwhile would make the copy a mixture: the tables are locked for it.
      await runTarget(`LOCK TABLE ${tables.map((t) => `"${t.name}"`).join(', ')} IN EXCLUSIVE MODE`);
      const late = await nonEmptyTables(runTarget);
      if (late.length > 0) throw new OperatorError(`${redacted(url)} received rows meanwhile (${late.join(', ')}).`);
      const rows = await copyTables(source.query, runTarget, tables);
      const problems = tableDifferences(expected, await summarizeTables(runTarget, await listTables(runTarget)));
      const money = await moneySums(runTarget);
      for (const key of Object.keys(expectedMoney) as (keyof typeof expectedMoney)[])
        if (money[key] !== expectedMoney[key])
          problems.push(`${key}: ${expectedMoney[key]} in the embedded database, ${money[key]} in PostgreSQL`);
      if (problems.length > 0)
        throw new OperatorError(`The copy does not match; nothing was kept in PostgreSQL:\n  ${problems.join('\n  ')}`);
      await runTarget('COMMIT');
      return [
        `Moved ${tables.length} tables (${rows} rows) to ${redacted(url)}: every table's rows match, and so do the balances (${toCredits(Number(expectedMoney.usersCreditsHundredths))} credits in all) and the ledgers (${toCredits(Number(expectedMoney.creditLedgerHundredths))} credits, ${expectedMoney.allowanceLedger} generations).`,
        '',
        'Start the server (and any workers) with:',
        `  DATABASE_URL=${url}`,
        `  DATA_DIR=${config.dataDir}`,
        '',
        'Keep DATA_DIR: it holds the uploaded files and videos (objects/) and the session secret, so signed-in users stay signed in.',
        `The embedded database in ${dbDirOf(config)} is left as it was and is no longer used once DATABASE_URL is set; delete it when you are satisfied.`,
      ].join('\n');
    } catch (error) {
      await runTarget('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await source.close();
    await target.end().catch(() => undefined);
  }
}
