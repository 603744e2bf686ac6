import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { listenPglite, listenPostgres, type NotificationHandlers, type StopListening } from './listen-notify';
import { acquirePgliteLock } from './pglite-lock';
import { takeTurns } from './pglite-turns';
import * as schema from './schema';
import type { RunSql } from './transfer';

/** Both drivers expose the same PostgreSQL query builder; the rest of the server sees only this. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repositories take either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Connections the database hands out at once (1 for PGlite, the pool's size for PostgreSQL). */
  poolSize: number;
  /** Applies the committed migrations (safe to call from several processes at once on PostgreSQL). */
  migrate(): Promise<void>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /** Queries waiting for the database right now (PGlite's queue, or PostgreSQL pool clients): load shedding reads it. */
  queued(): number;
  /** LISTEN on a channel (PostgreSQL: across processes on one dedicated connection; PGlite: in-process). */
  listen(channel: string, handlers: NotificationHandlers): Promise<StopListening>;
  /** Raw SQL for the operator's backup and move (PGlite: its one session; PostgreSQL: any pool client). */
  query: RunSql;
  /**
   * PGlite only: the data directory as a tarball (gzipped unless told), consistent because this
   * process alone holds it (its lock on disk; in memory, nobody else can reach it).
   */
  dumpDataDir?: (compression?: 'gzip' | 'none') => Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  // No dataDir: in memory (tests), empty or, with `template`, a copy of a dumped data directory.
  { kind: 'pglite'; dataDir?: string; template?: Blob } | { kind: 'postgres'; url: string; poolSize?: number };

/** The committed migrations: beside this file in the source, copied beside main.js in the build. */
export function migrationsFolder(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
}

const MIGRATION_LOCK_ID = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'pglite'
    ? openPglite(options.dataDir, options.template)
    : openPostgres(options.url, options.poolSize);
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? acquirePgliteLock(dataDir) : () => undefined;
  const client = dataDir ? new PGlite(dataDir) : new PGlite(template ? { loadDataDir: template } : {});
  try {
    await client.waitReady;
  } catch (error) {
    release();
    throw error;
  }
  const turns = takeTurns(client);
  const db = drizzlePglite({ client: turns as unknown as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    poolSize: 1,
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() }),
    ping: () => ping(db),
    queued: () => turns.queued(),
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    query: async (text, params) => (await turns.query<Record<string, unknown>>(text, params)).rows,
    dumpDataDir: (compression = 'gzip') => turns.query('CHECKPOINT').then(() => client.dumpDataDir(compression)),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    poolSize,
    migrate: async () => {
      // One connection holds an advisory lock so that several processes starting together migrate once.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        await client.end();
      }
    },
    ping: () => ping(db),
    queued: () => pool.waitingCount,
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    query: async (text, params) => (await pool.query<Record<string, unknown>>(text, params)).rows,
    close: () => pool.end(),
  };
}

/**
 * Unpacks a `dumpDataDir` tarball into `dataDir` (empty but for the lock, which the caller holds),
 * making it that embedded database.
 */
export async function unpackPgliteDataDir(dataDir: string, tarball: Blob): Promise<void> {
  const client = new PGlite(dataDir, { loadDataDir: tarball });
  await client.waitReady;
  await client.close();
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db. */
export function databaseOptionsFor(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') };
}
