import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readEnv } from '../../src/server/config';
import { freePort } from './app-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    admin: { email: string; password: string };
  }
}

/** The first account on the fresh installation: it becomes the administrator. */
const ADMIN = { email: 'owner@example.com', password: 'owner-password-1', firstName: 'Olive', lastName: 'Owner' };

let server: ChildProcess | undefined;
let dataDir: string | undefined;

/** Starts the app with the README's command (`npm start`: build, migrate, serve) on a free port and a fresh DATA_DIR. */
export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...readEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    // Every journey registers from 127.0.0.1: the per-address registration limit is not what they test.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
    REGISTRATIONS_PER_ADDRESS_PER_DAY: '1000',
  };
  // The README's first command runs on PGlite: so do the browser journeys. And it runs in production
  // mode: Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
  delete env.DATABASE_URL;
  env.NODE_ENV = 'production';
  const startedAt = Date.now();
  server = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  process.once('SIGTERM', stopOnSignal);
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const deadline = Date.now() + 200_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (Date.now() >= deadline) throw new Error(`the app did not answer within 200 s:\n${output}`);
  process.stdout.write(
    `e2e: npm start answered after ${((Date.now() - startedAt) / 1000).toFixed(1)} s (build included)\n`,
  );
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(ADMIN),
  });
  const admin = (await registered.json()) as { isAdmin?: boolean };
  if (registered.status !== 201 || !admin.isAdmin)
    throw new Error(`the first account is not the administrator: ${JSON.stringify(admin)}`);
  project.provide('baseUrl', baseUrl);
  project.provide('admin', { email: ADMIN.email, password: ADMIN.password });
}

/**
 * The server runs in its own process group, which a SIGTERM to the run's group (run-together's
 * ceiling) does not reach: it is stopped here, and the run ends as the signal would have ended it.
 */
function stopOnSignal(): void {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(143);
}

export async function teardown(): Promise<void> {
  process.off('SIGTERM', stopOnSignal);
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    // The server finishes its shutdown (it may still write to its data directory) before that goes.
    let ceiling: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (ceiling = setTimeout(resolve, 30_000)))]);
    clearTimeout(ceiling);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
