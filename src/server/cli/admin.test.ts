import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/database';
import { createUser } from '../../../tests/support/factories';
import { readEnv } from '../config';
import { openDatabase, unpackPgliteDataDir } from '../db/client';
import { adminAuditLog, creditLedger, passwordResetTokens, users } from '../db/schema';
import { main } from './admin';

const CLI = path.resolve(import.meta.dirname, 'admin.ts');
const onPostgres = readEnv().TEST_DB === 'postgres';

let dataDir: string;
let testDb: TestDatabase;

/** Runs a command in this process, on the test database, as `npm run admin -- ...args` would. */
async function cli(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
      LOG_LEVEL: 'silent',
    },
    database: testDb.database,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-cli-'));
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('grants credits with a ledger row naming the command line, sets a status and makes an admin', async () => {
    const { db } = testDb.database;
    const user = await createUser(db, { email: 'cli-user@example.com' });

    const grant = await cli('grant-credits', 'CLI-User@example.com', '12.5');
    expect(grant.stderr).toBe('');
    expect(grant.code).toBe(0);
    expect(grant.stdout).toContain('Granted 12.5 credits to cli-user@example.com; balance 12.5.');
    expect((await cli('set-status', user.email, 'trial')).code).toBe(0);
    expect((await cli('make-admin', user.email)).code).toBe(0);

    const listed = await cli('list-users', '--json', '--search', 'cli-user');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      {
        email: user.email,
        availableCredits: 12.5,
        totalLifetimeCredits: 12.5,
        subscriptionStatus: 'trial',
        isAdmin: true,
      },
    ]);
    const table = await cli('list-users', '--search', 'cli-user');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^EMAIL +CREDITS +STATUS +ROLE +CREATED\ncli-user@example\.com +12\.5 +trial +admin /);

    const ledger = await db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toMatchObject([{ deltaHundredths: 1250, kind: 'grant', actor: 'cli', actorUserId: null }]);
    const audits = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audits.map((a) => a.action).sort()).toEqual(['credits.grant', 'user.make_admin', 'user.set_status']);
  });

  it('fails with a clear message and a non-zero exit for bad input', async () => {
    const unknown = await cli('grant-credits', 'ghost@example.com', '5');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user has the email ghost@example.com');
    for (const amount of ['-5', 'ten', '0', '1.234']) {
      const bad = await cli('grant-credits', 'cli-user@example.com', amount);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`'${amount}' is not a positive amount of credits`);
    }
    const status = await cli('set-status', 'cli-user@example.com', 'gold');
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("'gold' is not a status");
    const command = await cli('launch-rockets');
    expect(command.code).toBe(1);
    expect(command.stderr).toContain("Unknown command 'launch-rockets'");
    expect(command.stderr).toContain('npm run admin -- list-users');
    const [row] = await testDb.database.db.select().from(users).where(eq(users.email, 'cli-user@example.com'));
    expect(row?.creditsHundredths).toBe(1250);
  });

  it('refuses to demote the last administrator', async () => {
    const demote = await cli('revoke-admin', 'cli-user@example.com');
    expect(demote.code).toBe(1);
    expect(demote.stderr).toContain('last administrator');
  });

  it('prints its usage on help', async () => {
    const help = await cli('help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('npm run admin -- grant-credits <email> <amount>');
  });

  // The one test that starts the real command line, as an operator would: it proves the entry point
  // and that the embedded database's lock keeps a second process out.
  it.skipIf(onPostgres)(
    'runs as its own process, and refuses an embedded database another process holds',
    async () => {
      function spawnCli(...args: string[]) {
        const env: Record<string, string | undefined> = { ...readEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
        delete env.DATABASE_URL;
        const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { env, encoding: 'utf8' });
        return { code: result.status, stdout: result.stdout, stderr: result.stderr };
      }
      // The run's migrated template unpacked into the data folder, as a restore does: an embedded
      // database made from nothing there (initdb, then every migration) took five seconds.
      const dbDir = path.join(dataDir, 'db');
      mkdirSync(dbDir);
      await unpackPgliteDataDir(dbDir, new Blob([await readFile(inject('pgliteTemplateFile'))]));
      const database = await openDatabase({ kind: 'pglite', dataDir: dbDir });
      try {
        await database.migrate();
        await createUser(database.db, { email: 'operator-view@example.com' });
        const locked = spawnCli('list-users');
        expect(locked.code).toBe(1);
        expect(locked.stderr).toContain(`is in use by process ${process.pid}`);
      } finally {
        await database.close();
      }
      const listed = spawnCli('list-users');
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('operator-view@example.com');
      // Two cold starts of the CLI (tsx compiles it, PGlite opens): slow on a busy machine, so a long limit.
    },
    180_000,
  );
});

describe('npm run admin -- reset-password', () => {
  it('prints a one-time link that sets a new password once', async () => {
    const { db } = testDb.database;
    const user = await createUser(db, { email: 'cli-reset@example.com' });
    const result = await cli('reset-password', 'CLI-Reset@example.com');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const link = /http:\/\/localhost:3000\/reset-password\?token=([\w-]+)/.exec(result.stdout);
    expect(link).not.toBeNull();
    const rows = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    // Only the hash is stored.
    expect(rows[0]?.id).not.toBe(link?.[1]);
  });

  it('says so when no account uses the email', async () => {
    const result = await cli('reset-password', 'nobody@example.com');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: No account uses nobody@example.com.\n');
  });
});
