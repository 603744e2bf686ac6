import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readEnv } from '../../src/server/config';
import { freePort } from '../../tests/support/ports';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags';

export { freePort };

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Another instance of the built app (global setup has run `npm start`, so `dist/` exists) with its
 * own data directory, on PGlite, with extra environment: for journeys that need a configuration the
 * main instance does not have (Stripe keys pointed at a local fake).
 */
export async function startBuiltServer(extraEnv: Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-e2e-extra-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...readEnv(),
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    // Every journey registers from 127.0.0.1: the per-address registration limit is not what they test.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
    REGISTRATIONS_PER_ADDRESS_PER_DAY: '1000',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Its first answer waits on the embedded database's start, which a busy machine can stretch past a minute.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer within 180 s:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers an account through the API and answers its session cookie. */
export async function registerAccount(
  baseUrl: string,
  account: { email: string; password: string; firstName: string },
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(account),
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie') ?? '';
}
