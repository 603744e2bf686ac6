import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/database';
import { freePort } from '../../tests/support/ports';
import { readEnv } from './config';

const MAIN = path.resolve(import.meta.dirname, 'main.ts');

function startServer(env: Record<string, string>) {
  const base = readEnv();
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...base, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForAnswer(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('main', () => {
  let dataDir: string;
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-main-'));
    if (readEnv().TEST_DB === 'postgres') testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates, answers on PORT with DATA_DIR honoured, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const server = startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(testDb?.url ? { DATABASE_URL: testDb.url } : {}),
    });
    const health = await waitForAnswer(`http://127.0.0.1:${port}/readyz`, 150_000);
    expect(health.status).toBe(200);
    expect(existsSync(path.join(dataDir, 'session-secret'))).toBe(true);
    if (!testDb) expect(existsSync(path.join(dataDir, 'db'))).toBe(true);

    const registered = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'main@example.com', password: 'longenough', firstName: 'Main' }),
    });
    expect(registered.status).toBe(201);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // A cold start (tsx compiles the server, PGlite creates its database): slow on a busy machine.
  }, 180_000);

  it('refuses to start with a list of every configuration problem', async () => {
    const server = startServer({ PORT: 'abc', SUPPORT_EMAIL: 'nope', DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT');
    expect(server.output()).toContain('SUPPORT_EMAIL');
  });
});
