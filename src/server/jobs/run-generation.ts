import { RETENTION_MS } from '../../shared/retention';
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerConfig } from '../config';
import type { ServiceContext } from '../context';
import type { GenerationRow } from '../db/schema';
import { AbortedError, type EngineContext, EngineError, type EngineJob } from '../engines/engine';
import { untilAborted } from '../lib/until-aborted';
import { makeWorkDir, removeWorkDir } from '../media/work-dirs';
import { mediaUrl } from '../storage/media-links';
import { outputKeyFor } from '../modules/generations/generations.service';
import { publishGenerationChange, publishQueueMoved } from '../modules/events/live-events.service';
import { settleFailedGeneration } from '../modules/money/charge-generation.service';
import { budgetExceededMessage, jobBudgetMs } from './job-budget';
import { storeOutput } from './output';
import * as queue from './queue.repository';

/** The worker running a job: its lease name, settings and log. */
export interface JobWorker {
  /** Names this worker's leases; unique per worker. */
  id: string;
  config: WorkerConfig;
  log: FastifyBaseLogger;
}

/** Why a running job was stopped: its row went away, the worker is shutting down, its budget ran out. */
export type StopReason = 'gone' | 'shutdown' | 'timeout';

/** Progress is written at most this often; a lost row is noticed at the next write or heartbeat. */
const PROGRESS_WRITE_MS = 1000;
/** Input links handed to providers stay valid this long. */
const INPUT_LINK_SECONDS = 6 * 3600;

function engineJobFor(ctx: ServiceContext, row: GenerationRow): EngineJob {
  const inputs: EngineJob['inputs'] = {};
  const linkExpiry = new Date(Date.now() + INPUT_LINK_SECONDS * 1000);
  for (const [kind, input] of Object.entries(row.inputs) as [
    keyof GenerationRow['inputs'],
    NonNullable<GenerationRow['inputs']['image']>,
  ][]) {
    inputs[kind] = {
      contentType: input.contentType,
      url: `${ctx.config.publicUrl}${mediaUrl(ctx.secret, { key: input.objectKey, contentType: input.contentType, expiresAt: linkExpiry })}`,
      open: () => ctx.storage.read(input.objectKey),
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
    lastAttempt: row.attempts >= queue.MAX_ATTEMPTS,
  };
}

/** Writes progress at most once a second, in order, and stops the job when its row is gone. */
function progressWriter(ctx: ServiceContext, worker: JobWorker, row: GenerationRow, controller: AbortController) {
  let lastWrite = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const write = (progress: number, stage: string) => {
    lastWrite = Date.now();
    chain = chain
      .then(() =>
        queue.saveProgress(ctx.db, row.id, worker.id, { progress, stage, leaseSeconds: worker.config.leaseSeconds }),
      )
      .then(async (ok) => {
        if (!ok) controller.abort('gone' satisfies StopReason);
        // Right after the write: the web process holding the owner's stream pushes it (decision 011).
        else await publishGenerationChange(ctx.db, row.userId, row.id);
      })
      .catch((error: unknown) => worker.log.warn({ err: error, generationId: row.id }, 'progress write failed'));
    return chain;
  };
  return {
    report: (progress: number, stage: string) => {
      if (Date.now() - lastWrite >= PROGRESS_WRITE_MS)
        void write(Math.max(0, Math.min(99, Math.round(progress))), stage);
    },
    flush: (progress: number, stage: string) => write(progress, stage),
  };
}

/** Runs one claimed job to its end: completed, failed, queued again for a retry, or released. */
export async function runGeneration(
  ctx: ServiceContext,
  worker: JobWorker,
  row: GenerationRow,
  controller: AbortController,
): Promise<void> {
  const log = worker.log.child({ generationId: row.id, attempt: row.attempts, model: row.model });
  const engine = ctx.engines.get(row.model);
  if (!engine) {
    await failForGood(
      ctx,
      worker,
      row,
      'This server can no longer render with this model: its provider keys were removed.',
    );
    return;
  }
  const workDir = await makeWorkDir('job');
  const budgetMs = jobBudgetMs(worker.config, ctx.config.providers, row.model);
  const budget = setTimeout(() => controller.abort('timeout' satisfies StopReason), budgetMs);
  const heartbeatMs = Math.min(5000, (worker.config.leaseSeconds * 1000) / 3);
  const heartbeat = setInterval(() => {
    queue
      .heartbeat(ctx.db, row.id, worker.id, worker.config.leaseSeconds)
      .then((ok) => {
        if (!ok) controller.abort('gone' satisfies StopReason);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
  }, heartbeatMs);
  const progress = progressWriter(ctx, worker, row, controller);
  const context: EngineContext = {
    workDir,
    signal: controller.signal,
    reportProgress: progress.report,
    saveProviderTask: async (taskId) => {
      if (!(await queue.saveProviderTask(ctx.db, row.id, worker.id, taskId)))
        controller.abort('gone' satisfies StopReason);
    },
  };
  const keys = { video: outputKeyFor(row.userId, row.id, 'mp4'), poster: outputKeyFor(row.userId, row.id, 'jpg') };
  try {
    log.info('render started');
    const started = Date.now();
    const result = await untilAborted(
      engine.render(engineJobFor(ctx, row), context),
      controller.signal,
      () => new AbortedError(),
    );
    await progress.flush(97, 'Saving video');
    if (controller.signal.aborted) throw new AbortedError();
    const stored = await storeOutput(ctx.engines.binaries, ctx.storage, result.filePath, {
      hasAudio: row.hasAudio,
      keys,
      signal: controller.signal,
    });
    const done = await queue.complete(ctx.db, row.id, worker.id, {
      outputKey: stored.outputKey,
      posterKey: stored.posterKey,
      outputDuration: stored.durationSeconds,
      retentionSeconds: RETENTION_MS / 1000,
    });
    if (!done) throw new AbortedError();
    await announce(ctx, row, log);
    log.info({ ms: Date.now() - started, duration: stored.durationSeconds }, 'render completed');
  } catch (error) {
    await Promise.all([ctx.storage.delete(keys.video), ctx.storage.delete(keys.poster)]).catch(() => undefined);
    await handleFailure(ctx, worker, row, controller, error, log, budgetMs);
  } finally {
    clearTimeout(budget);
    clearInterval(heartbeat);
    await removeWorkDir(workDir);
  }
}

async function handleFailure(
  ctx: ServiceContext,
  worker: JobWorker,
  row: GenerationRow,
  controller: AbortController,
  error: unknown,
  log: FastifyBaseLogger,
  budgetMs: number,
): Promise<void> {
  if (controller.signal.aborted || error instanceof AbortedError) {
    if (controller.signal.reason === 'shutdown') {
      if (await queue.release(ctx.db, row.id, worker.id)) await announce(ctx, row, log, true);
      log.info('released on shutdown');
    } else if (controller.signal.reason === 'timeout') {
      // Not retried: what made it this slow (usually an input) would make the next attempt as slow.
      log.warn({ budgetMs }, 'job stopped: over its time budget');
      await failForGood(ctx, worker, row, budgetExceededMessage(budgetMs));
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
    const delay = worker.config.retryDelaySeconds * row.attempts;
    const queued = await queue.retryLater(ctx.db, row.id, worker.id, {
      delaySeconds: delay,
      stage: 'Retrying after a temporary problem',
      restartTask: failure.restartTask,
    });
    if (queued) await announce(ctx, row, log, true);
    return;
  }
  await failForGood(ctx, worker, row, failure.message);
}

/** Marks a job failed and applies the refund policy, in one transaction. */
async function failForGood(ctx: ServiceContext, worker: JobWorker, row: GenerationRow, message: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const failed = await queue.fail(tx, row.id, worker.id, message);
    if (failed) await settleFailedGeneration(tx, failed);
    if (failed) await publishGenerationChange(tx, row.userId, row.id);
  });
}

/** Tells the owner's streams (and, when the job went back to the queue, everyone waiting) right after a change; never fails the job. */
async function announce(
  ctx: ServiceContext,
  row: GenerationRow,
  log: FastifyBaseLogger,
  queueMoved = false,
): Promise<void> {
  try {
    await publishGenerationChange(ctx.db, row.userId, row.id);
    if (queueMoved) await publishQueueMoved(ctx);
  } catch (error) {
    log.warn({ err: error }, 'could not announce a job change');
  }
}
