import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database';
import { createUser } from '../../../tests/support/factories';
import { readEnv } from '../config';
import { type Database, openDatabase } from '../db/client';
import { adminAuditLog, creditLedger, users } from '../db/schema';

const CLI = path.resolve(import.meta.dirname, 'admin.ts');
const onPostgres = readEnv().TEST_DB === 'postgres';

let dataDir: string;
let testDb: TestDatabase | undefined;

/** Opens the database the command line uses; with PGlite only while the command line is not running. */
async function withDb<T>(run: (database: Database) => Promise<T>): Promise<T> {
  if (testDb) return run(testDb.database);
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
  try {
    await database.migrate();
    return await run(database);
  } finally {
    await database.close();
  }
}

function cli(...args: string[]) {
  const env: Record<string, string | undefined> = { ...readEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  if (testDb?.url) env.DATABASE_URL = testDb.url;
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { env, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-cli-'));
  if (onPostgres) testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('grants credits with a ledger row naming the command line, sets a status and makes an admin', async () => {
    const user = await withDb((database) => createUser(database.db, { email: 'cli-user@example.com' }));

    const grant = cli('grant-credits', 'CLI-User@example.com', '12.5');
    expect(grant.stderr).toBe('');
    expect(grant.code).toBe(0);
    expect(grant.stdout).toContain('Granted 12.5 credits to cli-user@example.com; balance 12.5.');
    expect(cli('set-status', user.email, 'trial').code).toBe(0);
    expect(cli('make-admin', user.email).code).toBe(0);

    const listed = cli('list-users', '--json', '--search', 'cli-user');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { email: user.email, availableCredits: 12.5, totalLifetimeCredits: 12.5, subscriptionStatus: 'trial', isAdmin: true },
    ]);

    await withDb(async ({ db }) => {
      const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
      expect(ledger).toMatchObject([{ deltaHundredths: 1250, kind: 'grant', actor: 'cli', actorUserId: null }]);
      const audits = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
      expect(audits.map((a) => a.action).sort()).toEqual(['credits.grant', 'user.make_admin', 'user.set_status']);
    });
  });

  it('fails with a clear message and a non-zero exit for bad input', async () => {
    const unknown = cli('grant-credits', 'ghost@example.com', '5');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user has the email ghost@example.com');
    for (const amount of ['-5', 'ten', '0', '1.234']) {
      const bad = cli('grant-credits', 'cli-user@example.com', amount);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`'${amount}' is not a positive amount of credits`);
    }
    const status = cli('set-status', 'cli-user@example.com', 'gold');
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("'gold' is not a status");
    const command = cli('launch-rockets');
    expect(command.code).toBe(1);
    expect(command.stderr).toContain("Unknown command 'launch-rockets'");
    await withDb(async ({ db }) => {
      const [row] = await db.select().from(users).where(eq(users.email, 'cli-user@example.com'));
      expect(row?.creditsHundredths).toBe(1250);
    });
  });

  it('refuses to demote the last administrator', async () => {
    const demote = cli('revoke-admin', 'cli-user@example.com');
    expect(demote.code).toBe(1);
    expect(demote.stderr).toContain('last administrator');
  });

  it.skipIf(onPostgres)('refuses to open an embedded database another process holds', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
    try {
      const locked = cli('list-users');
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      await database.close();
    }
    expect(cli('list-users').code).toBe(0);
  });
});
