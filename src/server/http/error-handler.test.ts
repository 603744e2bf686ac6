import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { uniqueEmail } from '../../../tests/support/factories';
import { users } from '../db/schema';
import { hashPassword } from '../modules/auth/password';
import { serializeError } from './error-handler';

/*
 * Secrets stay out of the logs: a failed query carries its parameters (Drizzle puts them in its
 * message, its stack and a `params` field; the driver's `detail` quotes the whole row), so a failed
 * insert of a user would log their email and password hash unless the logger strips them.
 */

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' });
  // The app's own logger, configured by buildApp, writing here instead of to stdout.
  (t.app.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = {
    write: (line: string) => lines.push(line),
  };
  await t.db.execute(sql`
    CREATE FUNCTION test_refuse_explode() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.first_name = 'Explode' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF;
      RETURN NEW;
    END $$`);
  await t.db.execute(
    sql`CREATE TRIGGER test_refuse_explode BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION test_refuse_explode()`,
  );
  await t.db.execute(
    sql`ALTER TABLE users ADD CONSTRAINT test_no_mallory CHECK (first_name IS DISTINCT FROM 'Mallory')`,
  );
});
afterAll(async () => {
  await t.close();
});

/** What a failed insert of a user with these secrets throws, as the app would catch it. */
async function failedUserInsert(email: string, passwordHash: string): Promise<Error> {
  try {
    await t.db.insert(users).values({ email, passwordHash, creditsHundredths: -1 });
  } catch (error) {
    return error as Error;
  }
  throw new Error('the insert should have failed');
}

describe('serializeError', () => {
  it('logs a failed insert without its parameters or row: no email, no password hash', async () => {
    const email = uniqueEmail('secret');
    const hash = await hashPassword('correct horse battery staple');
    const error = await failedUserInsert(email, hash);
    // The error as thrown does carry both, three times over.
    expect(
      `${error.message} ${error.stack} ${JSON.stringify(error)} ${String((error.cause as { detail?: string }).detail)}`,
    ).toContain(hash);

    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain(email);
    expect(logged).not.toContain(hash);
    expect(logged).not.toContain('$argon2');
    expect(logged).not.toContain('Failing row');
    // What helps find the bug stays: the query text, the SQLSTATE, the constraint and table, the stack.
    expect(logged).toContain('Failed query: insert into \\"users\\"');
    expect(logged).toContain('"code":"23514"');
    expect(logged).toContain('users_credits_nonnegative');
    expect(logged).toContain('"table":"users"');
    expect(logged).toContain('error-handler.test.ts');
  });

  it('leaves out the value a data exception quotes', async () => {
    const error = await t.db.execute(sql`SELECT ${'hunter2-secret'}::uuid`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(String(error?.cause)).toContain('hunter2-secret');
    const logged = JSON.stringify(serializeError(error as Error));
    expect(logged).not.toContain('hunter2-secret');
    expect(logged).toContain('invalid input syntax for type uuid');
  });

  it('keeps an ordinary error as pino would log it, less fields that carry data', () => {
    const error = Object.assign(new Error('worker crashed'), {
      generationId: 'g1',
      params: ['a@example.com'],
      body: { password: 'pw' },
    });
    const logged = serializeError(error) as unknown as Record<string, unknown>;
    expect(logged).toMatchObject({ type: 'Error', message: 'worker crashed', generationId: 'g1' });
    expect(logged.stack).toContain('worker crashed');
    expect(JSON.stringify(logged)).not.toContain('a@example.com');
    expect(JSON.stringify(logged)).not.toContain('pw');
  });
});

describe('the app logger', () => {
  it('logs a registration that fails in the database (500) without the email, password or hash', async () => {
    lines.length = 0;
    const email = uniqueEmail('explode');
    const password = 'my very secret password';
    const response = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password, firstName: 'Explode' },
    });
    expect(response.statusCode).toBe(500);
    const reference = /reference ([0-9a-f-]{36})/.exec(response.json<{ message: string }>().message)?.[1];

    const log = lines.join('');
    const failure = lines.find((line) => line.includes('unhandled error'));
    expect(failure).toContain(reference);
    expect(failure).toContain('refused by a test trigger');
    expect(failure).toContain('Failed query: insert into \\"users\\"');
    expect(log).not.toContain(email);
    expect(log).not.toContain(password);
    expect(log).not.toContain('$argon2');
  });

  it('logs a registration the database refuses (409) without the email or hash either', async () => {
    lines.length = 0;
    const email = uniqueEmail('mallory');
    const response = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email, password: 'another secret password', firstName: 'Mallory' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('conflict');
    const warning = lines.find((line) => line.includes('database refused the request'));
    expect(warning).toContain('test_no_mallory');
    expect(lines.join('')).not.toContain(email);
    expect(lines.join('')).not.toContain('$argon2');
  });

  it('redacts bodies, passwords and hashes whatever logs them', () => {
    lines.length = 0;
    t.app.log.info(
      {
        req: { body: { email: 'body@example.com' } },
        body: { note: 'raw body text' },
        user: { password: 'pw-123', passwordHash: 'hash-456' },
      },
      'something logged carelessly',
    );
    const line = lines.join('');
    expect(line).toContain('something logged carelessly');
    for (const secret of ['body@example.com', 'raw body text', 'pw-123', 'hash-456'])
      expect(line).not.toContain(secret);
    expect(line).toContain('[Redacted]');
  });
});
