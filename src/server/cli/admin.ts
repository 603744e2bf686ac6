import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { subscriptionStatusSchema } from '../../shared/auth';
import { formatCreditCount, toCredits } from '../../shared/money/credits';
import { type Config, ConfigError, loadConfig } from '../config';
import { createServiceContext, type ServiceContext } from '../context';
import { type Database, databaseOptionsFor, openDatabase } from '../db/client';
import { AppError } from '../lib/app-error';
import * as admin from '../modules/admin/admin.service';
import { backup, moveToPostgres, OperatorError, restore } from './backup';
import { createResetLinkFor } from '../modules/auth/password-reset.service';

const USAGE = `Reelsmith operator commands (same configuration as the server: DATA_DIR, DATABASE_URL):

  npm run admin -- list-users [--search TEXT] [--limit N] [--json]
  npm run admin -- grant-credits <email> <amount>
  npm run admin -- set-status <email> <active|inactive|trial|premium_unlimited>
  npm run admin -- make-admin <email>
  npm run admin -- revoke-admin <email>
  npm run admin -- reset-password <email>     prints a one-time link to choose a new password (30 minutes)
  npm run admin -- backup DIR                 copies the embedded database and the stored files into DIR
  npm run admin -- restore DIR [--force]      brings a backup back into DATA_DIR (--force: replace what is there)
  npm run admin -- move-to-postgres <DATABASE_URL>
                                              copies the embedded database into an empty PostgreSQL database

With the embedded database (no DATABASE_URL), stop the server first: only one process may open it.`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value.`);
  return value;
}

function requireArgs(args: string[], count: number, names: string): string[] {
  if (args.length !== count) throw new UsageError(`Expected ${names}.`);
  return args;
}

async function listUsers(ctx: ServiceContext, args: string[]): Promise<string> {
  const limitText = option(args, '--limit') ?? '50';
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new UsageError('--limit must be a whole number from 1 to 500.');
  const search = option(args, '--search');
  const page = await admin.listUsers(ctx, { sort: 'createdAt', limit, ...(search ? { q: search } : {}) });
  if (args.includes('--json')) return JSON.stringify(page.users, null, 2);
  if (page.users.length === 0) return 'No users found.';
  const lines = page.users.map((u) =>
    [
      u.email.padEnd(36),
      String(u.availableCredits).padStart(9),
      u.subscriptionStatus.padEnd(18),
      u.isAdmin ? 'admin' : '',
      u.createdAt.slice(0, 10),
    ].join('  '),
  );
  return [`${'EMAIL'.padEnd(36)}  ${'CREDITS'.padStart(9)}  ${'STATUS'.padEnd(18)}  ROLE   CREATED`, ...lines].join(
    '\n',
  );
}

async function run(ctx: ServiceContext, command: string, args: string[]): Promise<string> {
  switch (command) {
    case 'list-users':
      return listUsers(ctx, args);
    case 'grant-credits': {
      const [email, amountText] = requireArgs(args, 2, '<email> <amount>') as [string, string];
      const amount = Number(amountText);
      if (!/^\d+(\.\d{1,2})?$/.test(amountText) || !(amount > 0)) {
        throw new UsageError(`'${amountText}' is not a positive amount of credits (at most two decimals).`);
      }
      const user = await admin.grantCredits(ctx, admin.CLI_ACTOR, email, amount);
      return `Granted ${formatCreditCount(amount)} to ${user.email}; balance ${toCredits(user.creditsHundredths)}.`;
    }
    case 'set-status': {
      const [email, statusText] = requireArgs(args, 2, '<email> <status>') as [string, string];
      const status = subscriptionStatusSchema.safeParse(statusText);
      if (!status.success)
        throw new UsageError(`'${statusText}' is not a status: use active, inactive, trial or premium_unlimited.`);
      const user = await admin.setSubscriptionStatus(ctx, admin.CLI_ACTOR, email, status.data);
      return `${user.email} is now ${user.subscriptionStatus}.`;
    }
    case 'make-admin':
    case 'revoke-admin': {
      const [email] = requireArgs(args, 1, '<email>') as [string];
      const user = await admin.setAdmin(ctx, admin.CLI_ACTOR, email, command === 'make-admin');
      return `${user.email} is ${user.isAdmin ? 'now an administrator' : 'no longer an administrator'}.`;
    }
    case 'reset-password': {
      const [email] = requireArgs(args, 1, '<email>') as [string];
      const link = await createResetLinkFor(ctx, email);
      return `Send this one-time link to the account's owner (it works once, within 30 minutes; signing in with it ends their other sessions):\n${link}`;
    }
    default:
      throw new UsageError(command ? `Unknown command '${command}'.` : 'No command given.');
  }
}

/** backup, restore and move-to-postgres; undefined for the other commands. */
async function runOnWholeInstallation(config: Config, command: string, args: string[]): Promise<string | undefined> {
  switch (command) {
    case 'backup':
      return backup(config, requireArgs(args, 1, 'DIR')[0]);
    case 'restore': {
      const force = args.includes('--force');
      const rest = args.filter((a) => a !== '--force');
      return restore(config, requireArgs(rest, 1, 'DIR [--force]')[0], force);
    }
    case 'move-to-postgres':
      return moveToPostgres(config, requireArgs(args, 1, '<DATABASE_URL>')[0]);
    default:
      return undefined;
  }
}

/** Where a command writes: process.stdout and process.stderr, or a test's buffers. */
export interface CliWriter {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliWriter;
  stderr: CliWriter;
  /** The environment the configuration is read from (the server's: DATA_DIR, DATABASE_URL...); default: the process's. */
  env?: Record<string, string | undefined>;
  /**
   * An open, migrated database to use instead of opening the one the configuration names; it stays
   * open (the caller closes it). Without it, the command opens, migrates and closes that database.
   */
  database?: Database;
}

/** Runs one operator command (`argv` without the program name) and answers its exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command = '', ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let opened: Database | undefined;
  try {
    const config = loadConfig(io.env);
    // These open the embedded database themselves (no migration for a backup; the copy needs the lock).
    const whole = await runOnWholeInstallation(config, command, args);
    if (whole !== undefined) {
      io.stdout.write(`${whole}\n`);
      return 0;
    }
    let database = io.database;
    if (!database) {
      database = opened = await openDatabase(databaseOptionsFor(config));
      await database.migrate();
    }
    io.stdout.write(`${await run(createServiceContext(config, database), command, args)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) io.stderr.write(`Error: ${error.message}\n\n${USAGE}\n`);
    else if (error instanceof AppError || error instanceof ConfigError || error instanceof OperatorError)
      io.stderr.write(`Error: ${error.message}\n`);
    else io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}

/** True when this file is the program being run (`npm run admin`), not a module a test imports. */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  const real = (file: string) => {
    try {
      return realpathSync(file);
    } catch {
      return path.resolve(file);
    }
  };
  const self = real(fileURLToPath(import.meta.url));
  const invoked = real(script);
  return invoked === self || invoked === self.replace(/\.ts$/, '');
}

if (isEntryPoint())
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
