import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect } from 'vitest';
import type { CreatedGenerationRecord, GenerationRecord } from '../../src/shared/generations';
import type { WorkerConfig } from '../../src/server/config';
import type { ServiceContext } from '../../src/server/context';
import { generations } from '../../src/server/db/schema';
import { startWorker, type Worker } from '../../src/server/jobs/worker';
import { createTestApp, injectJson, type TestApp } from './app';
import { createUser, signIn } from './factories';
import { type FakeFal, startFakeFal } from './fake-fal';
import { makeMediaFixtures } from './media';

/** Provider timings fast enough for tests (the stand-ins move a phase every few hundred ms). */
export const FAST_PROVIDER_ENV = {
  PROVIDER_POLL_SECONDS: '0.05',
  PROVIDER_TIMEOUT_SECONDS: '20',
  PROVIDER_RETRY_DELAY_MS: '5',
};

/** The worker settings of tests: quick polls and leases, no retry delay, a 1 s shutdown grace. */
export const TEST_WORKER_CONFIG: WorkerConfig = {
  concurrency: 1,
  leaseSeconds: 5,
  pollMs: 50,
  retryDelaySeconds: 0,
  shutdownGraceSeconds: 1,
  jobTimeoutSeconds: 600,
};

/** A worker in this process on the app's service context, with the test settings and any overrides. */
export function startTestWorker(
  on: { ctx: ServiceContext; app: { log: FastifyBaseLogger } },
  overrides: Partial<WorkerConfig> = {},
): Worker {
  return startWorker(on.ctx, { config: { ...TEST_WORKER_CONFIG, ...overrides }, log: on.app.log });
}

/** The app with one worker, as the server runs it. */
export async function startPipeline(
  env: Record<string, string>,
): Promise<{ t: TestApp; worker: Worker; stop: () => Promise<void> }> {
  const t = await createTestApp({ ...FAST_PROVIDER_ENV, ...env });
  const worker = startTestWorker(t, { concurrency: 2, leaseSeconds: 3 });
  return {
    t,
    worker,
    stop: async () => {
      await worker.stop(1000);
      await t.close();
    },
  };
}

export async function payingUser(t: TestApp, creditsHundredths = 1000) {
  const user = await createUser(t.db, { creditsHundredths });
  return { user, cookie: await signIn(t.app, user) };
}

/** POST /api/video-generation; answers the new record. */
export async function startGeneration(t: TestApp, cookie: string, body: object): Promise<GenerationRecord> {
  const response = await injectJson(t.app, 'POST', '/api/video-generation', {
    cookie,
    body: { prompt: 'A cat surfing', ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<GenerationRecord>();
}

/**
 * Watches a job's row until it completes or fails, collecting every distinct progress and stage
 * the worker wrote on the way.
 */
export async function followJob(t: TestApp, id: string, timeoutMs = 30_000) {
  const seen: { progress: number; stage: string | null }[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
    const last = seen.at(-1);
    if (row && (!last || last.progress !== row.progress || last.stage !== row.progressStage))
      seen.push({ progress: row.progress, stage: row.progressStage });
    if (!row || row.status === 'completed' || row.status === 'failed') return { row, seen };
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** Waits until a condition holds (a stand-in received a request, say). */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

export async function rowOf(t: TestApp, id: string) {
  const [row] = await t.db.select().from(generations).where(eq(generations.id, id));
  return row;
}

/** Extend (POST /api/video-generation/{id}/extend), expected to be accepted: the new record. */
export async function extendVideo(
  t: TestApp,
  cookie: string,
  id: string,
  body: object,
): Promise<CreatedGenerationRecord> {
  const response = await injectJson(t.app, 'POST', `/api/video-generation/${id}/extend`, { cookie, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedGenerationRecord>();
}

/** Where the fal pipelines say the app is served: links handed to the provider start with it. */
export const FAL_PIPELINE_PUBLIC_URL = 'https://reelsmith.example';

/** The app with one worker, its fal engine pointed at fal's stand-in (answering with `video`). */
export async function startFalPipeline(): Promise<{ fal: FakeFal; t: TestApp; stop: () => Promise<void> }> {
  const { video } = await makeMediaFixtures();
  const fal = await startFakeFal(video);
  fal.stepMs = 30;
  const { t, stop } = await startPipeline({
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.baseUrl,
    PUBLIC_URL: FAL_PIPELINE_PUBLIC_URL,
  });
  return {
    fal,
    t,
    stop: async () => {
      await stop();
      await fal.close();
    },
  };
}

/** The bytes a link handed to the provider serves (our signed media link, fetched from this app). */
export async function bytesAt(t: TestApp, link: unknown): Promise<Buffer> {
  expect(typeof link).toBe('string');
  const url = String(link);
  expect(url.startsWith(`${FAL_PIPELINE_PUBLIC_URL}/api/media/`)).toBe(true);
  const response = await t.app.inject({ method: 'GET', url: url.slice(FAL_PIPELINE_PUBLIC_URL.length) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}
