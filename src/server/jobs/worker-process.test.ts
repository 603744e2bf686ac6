import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../tests/support/app';
import { createUser, signIn } from '../../../tests/support/factories';
import { probeBytes } from '../../../tests/support/media';
import type { GenerationRecord } from '../../shared/generations';
import { readEnv } from '../config';
import { creditLedger, type GenerationRow, generations, users } from '../db/schema';

const MAIN = path.resolve(import.meta.dirname, '../main.ts');

// Several worker processes share one database: PostgreSQL only (PGlite is single-process by design).
describe.runIf(readEnv().TEST_DB === 'postgres')('worker processes', () => {
  let t: TestApp;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t.close();
  });

  function startWorkerProcess(env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--services=worker'], {
      env: {
        ...readEnv(),
        DATABASE_URL: t.testDb.url,
        DATA_DIR: t.dataDir,
        SESSION_SECRET: t.config.sessionSecret,
        PUBLIC_URL: t.config.publicUrl,
        WORKER_LEASE_SECONDS: '3',
        WORKER_POLL_MS: '100',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  async function waitForRow(id: string, ready: (row: GenerationRow) => boolean, timeoutMs = 90_000): Promise<GenerationRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
      if (row && ready(row)) return row;
      if (Date.now() > deadline) throw new Error(`timed out; row: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function startJob(prompt: string) {
    const user = await createUser(t.db, { creditsHundredths: 100 });
    const cookie = await signIn(t.app, user);
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie,
      body: { prompt, duration: 20 },
    });
    expect(response.statusCode).toBe(201);
    return { user, cookie, id: response.json<GenerationRecord>().id };
  }

  it('finishes, in another worker, a job whose worker was killed mid-render, charging it once', { timeout: 120_000 }, async () => {
    const { user, cookie, id } = await startJob('A slow purple and gold aurora');
    const first = startWorkerProcess();
    const claimed = await waitForRow(id, (row) => row.status === 'processing' && row.progress >= 10);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(claimed.status).toBe('processing');

    const second = startWorkerProcess();
    const done = await waitForRow(id, (row) => row.status === 'completed' || row.status === 'failed');
    expect(done.status).toBe('completed');
    expect(done.attempts).toBe(2);
    expect(done.leaseOwner).toBeNull();
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(1);
    expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0]?.creditsHundredths).toBe(0);

    const record = (await injectJson(t.app, 'GET', '/api/video-generation', { cookie })).json<GenerationRecord[]>()[0];
    const video = await t.app.inject({ method: 'GET', url: record?.outputVideoUrl ?? '' });
    const info = await probeBytes(video.rawPayload);
    expect(info.video).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expect(Math.abs(info.durationSeconds - 20)).toBeLessThanOrEqual(0.2);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('on SIGTERM stops claiming and hands back a job it cannot finish within its grace time', { timeout: 60_000 }, async () => {
    const { id } = await startJob('A calm teal ocean at dawn');
    const worker = startWorkerProcess({ WORKER_SHUTDOWN_GRACE_SECONDS: '1' });
    await waitForRow(id, (row) => row.status === 'processing' && row.progress >= 5);
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
    // Handed back untouched: pending, not counted as an attempt, ready for the next worker.
    expect(row).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null });
  });
});
