import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn, uploadFile } from '../../../../tests/support/factories';
import { followJob, startGeneration, startTestWorker, waitUntil } from '../../../../tests/support/pipeline';
import { openSse, type SseStream } from '../../../../tests/support/sse-client';
import { generations, payments } from '../../db/schema';
import type { Worker } from '../../jobs/worker';

const TOKEN = 'metrics-token-0123456789abcdef';
const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/astronaut.png'));

const scrape = (t: TestApp, authorization?: string) =>
  injectJson(t.app, 'GET', '/metrics', { headers: authorization ? { authorization } : {} });

/** The value of one sample line (`name{labels} value`), or undefined when the line is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/**
 * Prometheus's naming rules (prometheus.io/docs/practices/naming and the text format): every family
 * has HELP and TYPE, a counter's name ends in _total, nothing else's does, names are snake_case.
 */
function namingProblems(text: string): string[] {
  const problems: string[] = [];
  const helped = new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]));
  for (const [, name = '', type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!helped.has(name)) problems.push(`${name}: no HELP`);
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) problems.push(`${name}: not snake_case`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: a counter without _total`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: a ${type} named like a counter`);
  }
  return problems;
}

/** `promtool check metrics` on the text: its exit status and what it printed, or null without promtool. */
function checkWithPromtool(text: string): { status: number | null; output: string } | null {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  if (run.error && 'code' in run.error && run.error.code === 'ENOENT') return null;
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist (404), with or without a token', async () => {
    const t = await createTestApp();
    try {
      expect((await scrape(t)).statusCode).toBe(404);
      expect((await scrape(t, `Bearer ${TOKEN}`)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let worker: Worker | null = null;
  let stream: SseStream | null = null;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, LOG_LEVEL: 'error' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    stream?.close();
    await worker?.stop(1000);
    await t.close();
  });

  it('refuses a scrape without the bearer token, with a wrong one, or with the token in another scheme (401)', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const response = await scrape(t, authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('reelsmith_');
    }
  });

  it('carries every family after a local-engine generation, a failed one, a payment and an open stream', async () => {
    const user = await createUser(t.db, { creditsHundredths: 1000 });
    const cookie = await signIn(t.app, user);
    // A job whose input vanished before it ran: the engine's failure is counted by kind.
    const imageFile = await uploadFile(t.app, cookie, ASTRONAUT);
    const broken = await startGeneration(t, cookie, {
      prompt: 'A slow zoom',
      imageFile,
      duration: 3,
      consentToLikeness: true,
    });
    const [brokenRow] = await t.db.select().from(generations).where(eq(generations.id, broken.id));
    await t.ctx.storage.delete(brokenRow?.inputs.image?.objectKey ?? '');
    const made = await startGeneration(t, cookie, { prompt: 'A red and gold sunset', duration: 3 });

    const waiting = await scrape(t, `Bearer ${TOKEN}`);
    expect(waiting.statusCode).toBe(200);
    expect(waiting.headers['content-type']).toContain('text/plain');
    expect(sample(waiting.body, 'reelsmith_queue_jobs', { state: 'pending' })).toBe(2);
    expect(sample(waiting.body, 'reelsmith_queue_oldest_wait_seconds')).toBeGreaterThanOrEqual(0);

    worker = startTestWorker(t, { leaseSeconds: 3 });
    expect((await followJob(t, broken.id, 60_000)).row?.status).toBe('failed');
    expect((await followJob(t, made.id, 60_000)).row?.status).toBe('completed');
    await t.db.insert(payments).values({
      id: 'pi_metrics_1',
      userId: user.id,
      kind: 'credits',
      credits: 10,
      amountCents: 1000,
      currency: 'usd',
      source: 'webhook',
    });
    const { port } = t.app.server.address() as AddressInfo;
    stream = await openSse(`http://127.0.0.1:${port}`, cookie);
    await waitUntil(
      async () => sample((await scrape(t, `Bearer ${TOKEN}`)).body, 'reelsmith_event_stream_connections') === 1,
    );
    await injectJson(t.app, 'GET', `/api/video-generation`, { cookie });

    const text = (await scrape(t, `Bearer ${TOKEN}`)).body;
    const listed = { method: 'GET', route: '/api/video-generation', status: '2xx' };
    expect(sample(text, 'reelsmith_http_request_duration_seconds_count', listed)).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'reelsmith_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/video-generation',
        status: '2xx',
      }),
    ).toBe(2);
    // Route patterns, never raw URLs: no id appears in any label.
    expect(text).not.toContain(made.id);
    expect(sample(text, 'reelsmith_event_stream_connections')).toBe(1);
    expect(sample(text, 'reelsmith_queue_jobs', { state: 'pending' })).toBe(0);
    expect(sample(text, 'reelsmith_queue_jobs', { state: 'processing' })).toBe(0);
    expect(sample(text, 'reelsmith_queue_oldest_wait_seconds')).toBe(0);
    expect(sample(text, 'reelsmith_queue_wait_seconds_count', { model: made.model })).toBe(2);
    expect(sample(text, 'reelsmith_job_duration_seconds_count', { model: made.model, outcome: 'completed' })).toBe(1);
    expect(sample(text, 'reelsmith_job_duration_seconds_count', { model: made.model, outcome: 'failed' })).toBe(1);
    expect(sample(text, 'reelsmith_provider_errors_total', { model: made.model, kind: 'input' })).toBe(1);
    expect(sample(text, 'reelsmith_payments_total', { kind: 'credits' })).toBe(1);
    expect(sample(text, 'reelsmith_payment_amount_cents_total', { kind: 'credits', currency: 'usd' })).toBe(1000);
    // Node's own, under the names Node.js dashboards read; the gauges prom-client names like counters, as gauges.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_active_handles')).toBeGreaterThan(0);
    expect(text).not.toMatch(/^reelsmith_(process|nodejs)_/m);
    expect(namingProblems(text)).toEqual([]);
    // Prometheus's own check, where this machine has it (Debian's prometheus package).
    const promtool = checkWithPromtool(text);
    if (promtool) expect(promtool).toEqual({ status: 0, output: '' });
  }, 120_000);
});
