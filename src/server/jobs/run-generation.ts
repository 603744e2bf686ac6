import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RETENTION_MS } from '../../shared/retention';
import type { GenerationRow } from '../db/schema';
import { EngineAbortedError, type EngineContext, EngineError, type EngineJob } from '../engines/engine';
import { mediaUrl } from '../http/media-links';
import { settleFailedGeneration } from '../modules/generations/generation-billing';
import { outputKeyFor } from '../modules/generations/generations.service';
import { storeOutput } from './output';
import * as queue from './queue.repository';
import type { WorkerDeps } from './worker';

/** Why a running job was stopped. */
export type StopReason = 'gone' | 'shutdown';

/** Progress is written at most this often; a lost row is noticed at the next write or heartbeat. */
const PROGRESS_WRITE_MS = 1000;
/** Input links handed to providers stay valid this long. */
const INPUT_LINK_SECONDS = 6 * 3600;

function engineJobFor(deps: WorkerDeps, row: GenerationRow): EngineJob {
  const inputs: EngineJob['inputs'] = {};
  const linkExpiry = new Date(Date.now() + INPUT_LINK_SECONDS * 1000);
  for (const [kind, input] of Object.entries(row.inputs) as [keyof GenerationRow['inputs'], NonNullable<GenerationRow['inputs']['image']>][]) {
    inputs[kind] = {
      contentType: input.contentType,
      url: `${deps.publicUrl}${mediaUrl(deps.secret, { key: input.objectKey, contentType: input.contentType, expiresAt: linkExpiry })}`,
      open: () => deps.storage.read(input.objectKey),
    };
  }
  return {
    id: row.id,
    prompt: row.prompt,
    duration: row.requestedDuration,
    hasAudio: row.hasAudio,
    isEconomy: row.isEconomy,
    settings: row.settings,
    inputs,
    providerTaskId: row.providerTaskId,
  };
}

/** Writes progress at most once a second, in order, and stops the job when its row is gone. */
function progressWriter(deps: WorkerDeps, row: GenerationRow, controller: AbortController) {
  let lastWrite = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const write = (progress: number, stage: string) => {
    lastWrite = Date.now();
    chain = chain
      .then(() => queue.saveProgress(deps.db, row.id, deps.workerId, { progress, stage, leaseSeconds: deps.worker.leaseSeconds }))
      .then((ok) => {
        if (!ok) controller.abort('gone' satisfies StopReason);
      })
      .catch((error: unknown) => deps.log.warn({ err: error, generationId: row.id }, 'progress write failed'));
    return chain;
  };
  return {
    report: (progress: number, stage: string) => {
      if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) void write(Math.max(0, Math.min(99, Math.round(progress))), stage);
    },
    flush: (progress: number, stage: string) => write(progress, stage),
  };
}

/** Runs one claimed job to its end: completed, failed, queued again for a retry, or released. */
export async function runGeneration(deps: WorkerDeps, row: GenerationRow, controller: AbortController): Promise<void> {
  const log = deps.log.child({ generationId: row.id, attempt: row.attempts, model: row.model });
  const engine = deps.engines.get(row.model);
  if (!engine) {
    await failForGood(deps, row, 'This server can no longer render with this model: its provider keys were removed.');
    return;
  }
  const workDir = await mkdtemp(path.join(tmpdir(), 'reelsmith-job-'));
  const heartbeatMs = Math.min(5000, (deps.worker.leaseSeconds * 1000) / 3);
  const heartbeat = setInterval(() => {
    queue
      .heartbeat(deps.db, row.id, deps.workerId, deps.worker.leaseSeconds)
      .then((ok) => {
        if (!ok) controller.abort('gone' satisfies StopReason);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
  }, heartbeatMs);
  const progress = progressWriter(deps, row, controller);
  const context: EngineContext = {
    workDir,
    signal: controller.signal,
    reportProgress: progress.report,
    saveProviderTask: async (taskId) => {
      if (!(await queue.saveProviderTask(deps.db, row.id, deps.workerId, taskId))) controller.abort('gone' satisfies StopReason);
    },
  };
  const keys = { video: outputKeyFor(row.userId, row.id, 'mp4'), poster: outputKeyFor(row.userId, row.id, 'jpg') };
  try {
    log.info('render started');
    const started = Date.now();
    const result = await engine.render(engineJobFor(deps, row), context);
    await progress.flush(97, 'Saving video');
    if (controller.signal.aborted) throw new EngineAbortedError();
    const stored = await storeOutput(deps.engines.binaries, deps.storage, result.filePath, {
      hasAudio: row.hasAudio,
      keys,
      signal: controller.signal,
    });
    const done = await queue.complete(deps.db, row.id, deps.workerId, {
      outputKey: stored.outputKey,
      posterKey: stored.posterKey,
      outputDuration: stored.durationSeconds,
      retentionSeconds: RETENTION_MS / 1000,
    });
    if (!done) throw new EngineAbortedError();
    log.info({ ms: Date.now() - started, duration: stored.durationSeconds }, 'render completed');
  } catch (error) {
    await Promise.all([deps.storage.delete(keys.video), deps.storage.delete(keys.poster)]).catch(() => undefined);
    await handleFailure(deps, row, controller, error, log);
  } finally {
    clearInterval(heartbeat);
    await rm(workDir, { recursive: true, force: true });
  }
}

async function handleFailure(
  deps: WorkerDeps,
  row: GenerationRow,
  controller: AbortController,
  error: unknown,
  log: WorkerDeps['log'],
): Promise<void> {
  if (controller.signal.aborted || error instanceof EngineAbortedError) {
    if (controller.signal.reason === 'shutdown') {
      await queue.release(deps.db, row.id, deps.workerId);
      log.info('released on shutdown');
    } else {
      log.info('stopped: the job was deleted or taken over');
    }
    return;
  }
  const failure =
    error instanceof EngineError
      ? error
      : new EngineError('Something went wrong while making your video. Please try again.', true, String(error));
  log.warn({ err: error, detail: failure.detail, retryable: failure.retryable }, 'render failed');
  if (failure.retryable && row.attempts < queue.MAX_ATTEMPTS) {
    const delay = deps.worker.retryDelaySeconds * row.attempts;
    await queue.retryLater(deps.db, row.id, deps.workerId, {
      delaySeconds: delay,
      stage: 'Retrying after a temporary problem',
      restartTask: failure.restartTask,
    });
    return;
  }
  await failForGood(deps, row, failure.message);
}

/** Marks a job failed and applies the refund policy, in one transaction. */
async function failForGood(deps: WorkerDeps, row: GenerationRow, message: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const failed = await queue.fail(tx, row.id, deps.workerId, message);
    if (failed) await settleFailedGeneration(tx, failed);
  });
}
