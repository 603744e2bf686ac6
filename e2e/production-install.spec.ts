import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../src/server/config';
import { freePort, registerAccount } from './support/app-server';

const root = path.resolve(import.meta.dirname, '..');
const PNG = readFileSync(path.join(root, 'tests/fixtures/chelsea.png'));

/** Runs a command to its end; rejects with its output when it fails or outlives `timeoutMs`. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

// What an operator deploys: the build and the lock file, with runtime dependencies only.
describe('a production install (npm install --omit=dev after a build, then npm run serve)', () => {
  const appDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-prod-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-prod-data-'));
  let port = 0;
  let baseUrl = '';
  let server: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    for (const file of ['package.json', 'package-lock.json', 'dist'])
      cpSync(path.join(root, file), path.join(appDir, file), { recursive: true });
    const env: NodeJS.ProcessEnv = { ...readEnv(), NODE_ENV: 'production' };
    // The lock file pins every version, so the packages `npm install` put in the cache moments ago are
    // the ones to install: --prefer-offline takes them without asking the registry again (48 s, not 60).
    await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: appDir,
      env,
      timeoutMs: 300_000,
    });
    const serveEnv: NodeJS.ProcessEnv = {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
    };
    delete serveEnv.DATABASE_URL;
    server = spawn('npm', ['run', 'serve'], {
      cwd: appDir,
      env: serveEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`npm run serve exited with ${server.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm run serve did not answer within 60 s:\n${output}`);
      try {
        if ((await fetch(`${baseUrl}/readyz`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 420_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      // npm and the server it started share a process group.
      process.kill(-server.pid, 'SIGTERM');
      await new Promise((resolve) => server?.once('exit', resolve));
    }
    rmSync(appDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has no development packages, starts, and stores an upload sent as a PUT and as a form', async () => {
    expect(() => readFileSync(path.join(appDir, 'node_modules/vitest/package.json'))).toThrow();
    const cookie =
      (
        await registerAccount(baseUrl, { email: 'ops@example.com', password: 'production-pass-1', firstName: 'Ops' })
      ).split(';')[0] ?? '';
    const target = async () => {
      const response = await fetch(`${baseUrl}/api/objects/upload`, {
        method: 'POST',
        headers: { cookie, origin: baseUrl },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { uploadURL: string }).uploadURL;
    };

    const put = await fetch(`${baseUrl}${await target()}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ kind: 'image', size: PNG.length });

    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'photo.png');
    const posted = await fetch(`${baseUrl}${await target()}`, { method: 'POST', body: form });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ kind: 'image', size: PNG.length });
  });

  it('answers 400 to a malformed form and stays up', async () => {
    const cookie =
      (
        await registerAccount(baseUrl, { email: 'ops2@example.com', password: 'production-pass-2', firstName: 'Ops' })
      ).split(';')[0] ?? '';
    const target = await fetch(`${baseUrl}/api/objects/upload`, {
      method: 'POST',
      headers: { cookie, origin: baseUrl },
    });
    const { uploadURL } = (await target.json()) as { uploadURL: string };
    const malformed = await fetch(`${baseUrl}${uploadURL}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nthis is not a header\r\n\r\nbody\r\n--x--\r\n',
    });
    expect(malformed.status).toBe(400);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    expect(server?.exitCode).toBeNull();
  });
});
