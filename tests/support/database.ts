import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { readEnv } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';

export interface TestDatabase {
  database: Database;
  /** The connection URL for PostgreSQL legs (undefined on PGlite). */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on the server named by DATABASE_URL, dropped afterwards. Each is a copy of the run's
 * migrated template (tests/setup/template-database.ts) when the project has one.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const env = readEnv();
  if (env.TEST_DB !== 'postgres') {
    const templateFile = provided('pgliteTemplateFile');
    const template = templateFile ? new Blob([await readFile(templateFile)]) : undefined;
    const database = await openDatabase({ kind: 'pglite', ...(template ? { template } : {}) });
    await database.migrate();
    // A database its test already closed (to see the app without it) is dropped all the same.
    return { database, url: undefined, drop: () => database.close().catch(() => undefined) };
  }
  const adminUrl = env.DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `reelsmith_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const template = provided('postgresTemplateName');
  // The comment names the run's template and the test file: a database left behind tells whose it
  // is, and the run's teardown drops it (tests/setup/template-database.ts).
  const testPath = currentTestFile();
  const owner = `${template ?? 'no-template'} ${testPath ? path.relative(process.cwd(), testPath) : 'unknown'}`;
  await withAdmin(adminUrl, async (client) => {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
    await client.query(`COMMENT ON DATABASE "${name}" IS ${client.escapeLiteral(owner)}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
  await database.migrate();
  return {
    database,
    url: url.toString(),
    drop: async () => {
      // The pool ends once its clients are back; one still held by work the test left running (a
      // job's render outliving the worker's stop) would hold it for as long as that work takes.
      // Ten seconds, then DROP ... WITH (FORCE) ends whatever session is still open. A database its
      // test already closed (to see the app without it) is dropped all the same.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        database.close().catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 10_000);
        }),
      ]);
      clearTimeout(timer);
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** The test file running (undefined outside Vitest: a bench that builds a test app). */
function currentTestFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined;
  }
}

/** What the run's global setup provided; nothing outside Vitest (a bench that builds a test app). */
function provided(key: 'pgliteTemplateFile' | 'postgresTemplateName'): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
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
