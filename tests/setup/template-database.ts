import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite legs: a dumped, migrated in-memory data directory (a tarball file) that each test file loads. */
    pgliteTemplateFile: string;
    /** PostgreSQL legs: a migrated database that each test file's database is created from. */
    postgresTemplateName: string;
  }
}

let cleanUp: (() => Promise<void>) | undefined;

/**
 * One migrated database per test run, copied by every test file instead of each making its own
 * (tests/support/database.ts). On PGlite a fresh in-memory database runs initdb and then every
 * migration, several seconds a file on a busy machine; loading a dumped data directory skips both.
 * On PostgreSQL, `CREATE DATABASE ... TEMPLATE` copies the migrated one. Each file's copy is still
 * its own, so files stay independent; createTestDatabase still migrates it (nothing left to apply).
 */
export async function setup(project: TestProject): Promise<void> {
  if (project.name === 'server-postgres') {
    // eslint-disable-next-line no-restricted-properties -- test setup: the runner's environment, not app configuration
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('the server-postgres project needs DATABASE_URL');
    const name = `reelsmith_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
    await database.migrate();
    // A template may have no other session open while it is copied.
    await database.close();
    project.provide('postgresTemplateName', name);
    cleanUp = () =>
      withAdmin(adminUrl, async (client) => {
        await dropLeftovers(client, name);
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    return;
  }
  const database = await openDatabase({ kind: 'pglite' });
  await database.migrate();
  // Each copy is a new PostgreSQL that sets up its shared buffers at start: PostgreSQL's default of
  // 128 MB, for a test database of a few hundred rows, is 100 MB of memory written and then dropped
  // per file. 16 MB (postgresql.auto.conf, in the dump): measured here, 0.51 -> 0.37 CPU-seconds
  // and half the page faults per copy opened.
  await database.query("ALTER SYSTEM SET shared_buffers = '16MB'");
  await database.query('CHECKPOINT');
  const dir = mkdtempSync(path.join(tmpdir(), 'reelsmith-test-db-'));
  const file = path.join(dir, 'template.tar');
  // Uncompressed: each test file reads it once, and gunzip would cost more than the bytes.
  const tarball = await database.dumpDataDir!('none');
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplateFile', file);
  cleanUp = async () => rmSync(dir, { recursive: true, force: true });
}

export async function teardown(): Promise<void> {
  await cleanUp?.();
}

/**
 * The databases of this run's test files that are still there once every file has finished (a file
 * that did not drop its own): each is named on the console with its file, from the comment
 * createTestDatabase gave it, and dropped, so runs leave nothing behind on the server.
 */
async function dropLeftovers(client: pg.Client, template: string): Promise<void> {
  const { rows } = await client.query<{ datname: string; description: string }>(
    `SELECT d.datname, s.description FROM pg_database d
       JOIN pg_shdescription s ON s.objoid = d.oid AND s.classoid = 'pg_database'::regclass
      WHERE s.description LIKE $1`,
    [`${template} %`],
  );
  for (const { datname, description } of rows) {
    console.warn(`test database ${datname} of ${description.slice(template.length + 1)} was left behind: dropped`);
    await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

async function withAdmin(url: string, run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
