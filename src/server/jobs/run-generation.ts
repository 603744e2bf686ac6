import type { FastifyBaseLogger } from 'fastify';
import type { WorkerConfig } from '../config';
import type { ServiceContext } from '../context';
import type { GenerationFinish, GenerationInput, GenerationRow } from '../db/schema';
import {
  AbortedError,
  type EngineContext,
  EngineError,
  type EngineInput,
  type EngineJob,
  USER_FAILURE_KINDS,
} from '../engines/engine';
import type { JobOutcome } from '../lib/metrics';
import { untilAborted } from '../lib/until-aborted';
import { makeWorkDir, removeWorkDir } from '../media/work-dirs';
import { mediaUrl } from '../storage/media-links';
import { publishGenerationChange, publishQueueMoved } from '../bus/publish';
import { jobCopiesOf } from '../modules/generations/generations.service';
import * as lifecycle from '../modules/generations/lifecycle.service';
import { applySavedSettings } from '../modules/settings/settings.service';
import { notifyVideoFinished } from '../modules/notifications/notifications.service';
import { ContentBlockedError, screenRenderedVideo } from '../modules/moderation/moderation.service';
import { signGenerationVideo, visibleLabelFor } from '../modules/provenance/provenance.service';
import { BLOCKED_OUTPUT_MESSAGE, type ReviewHold } from '../../shared/moderation';
import { joinExtension } from './extend-join';
import { filmEngine } from './film-export';
import { finishEngine } from './finish-video';
import { isLocalFinishingTool } from '../engines/finishing';
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
  const linkExpiry = new Date(Date.now() + INPUT_LINK_SECONDS * 1000);
  const engineInput = (input: Pick<GenerationInput, 'objectKey' | 'contentType'>): EngineInput => ({
    contentType: input.contentType,
    url: `${ctx.config.publicUrl}${mediaUrl(ctx.secret, { key: input.objectKey, contentType: input.contentType, expiresAt: linkExpiry })}`,
    open: () => ctx.storage.read(input.objectKey),
  });
  const inputs: EngineJob['inputs'] = {};
  for (const [kind, input] of Object.entries(row.inputs) as [keyof GenerationRow['inputs'], GenerationInput][]) {
    inputs[kind] = engineInput(input);
  }
  return {
    id: row.id,
    prompt: row.prompt,
    duration: row.requestedDuration,
    hasAudio: row.hasAudio,
    isEconomy: row.isEconomy,
    settings: row.settings,
    inputs,
    ...(row.endImage ? { endImage: engineInput(row.endImage) } : {}),
    referenceImages: row.referenceImages.map(engineInput),
    // Extend through the provider's own call: the stored copy of the original, as a signed link like any input.
    ...(row.extension?.method === 'provider'
      ? { extendVideo: engineInput({ objectKey: row.extension.baseKey, contentType: 'video/mp4' }) }
      : {}),
    // Kling's extend call names the original by Kling's own id of it, read from the task that made it.
    ...(row.extension?.method === 'provider' && row.extension.originalTask
      ? { extendFrom: { providerTaskId: row.extension.originalTask } }
      : {}),
    ...(row.finish ? { finish: finishFor(row.finish, engineInput) } : {}),
    providerTaskId: row.providerTaskId,
    lastAttempt: row.attempts >= lifecycle.MAX_ATTEMPTS,
  };
}

/** A finishing action's job as a provider's tool takes it: signed links to the copies it works on. */
function finishFor(
  finish: GenerationFinish,
  engineInput: (input: Pick<GenerationInput, 'objectKey' | 'contentType'>) => EngineInput,
): NonNullable<EngineJob['finish']> {
  const copy = (file: { key: string; contentType: string }) =>
    engineInput({ objectKey: file.key, contentType: file.contentType });
  return {
    action: finish.action,
    video: engineInput({ objectKey: finish.sourceKey, contentType: 'video/mp4' }),
    ...(finish.audio ? { audio: copy(finish.audio) } : {}),
    ...(finish.image ? { image: copy(finish.image) } : {}),
    ...(finish.prompt ? { prompt: finish.prompt } : {}),
    ...(finish.resolution ? { resolution: finish.resolution } : {}),
    ...(finish.fps ? { fps: finish.fps } : {}),
    seconds: finish.sourceSeconds,
  };
}

/** Writes progress at most once a second, in order, and stops the job when its row is gone. */
function progressWriter(ctx: ServiceContext, worker: JobWorker, job: lifecycle.LeasedJob, controller: AbortController) {
  let lastWrite = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const write = (progress: number, stage: string) => {
    lastWrite = Date.now();
    chain = chain
      // With its live event: the web process holding the owner's stream pushes it (decision 011).
      .then(() => lifecycle.saveProgress(ctx, job, { progress, stage, leaseSeconds: worker.config.leaseSeconds }))
      .then((ok) => {
        if (!ok) controller.abort('gone' satisfies StopReason);
      })
      .catch((error: unknown) => worker.log.warn({ err: error, generationId: job.id }, 'progress write failed'));
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
  const job: lifecycle.LeasedJob = { id: row.id, userId: row.userId, workerId: worker.id };
  const runStarted = Date.now();
  const observe = (outcome: JobOutcome) =>
    ctx.metrics.jobDuration.observe({ model: row.model, outcome }, (Date.now() - runStarted) / 1000);
  // A model connected a moment ago on the settings page (the nudge to this process may still be on
  // its way): read the saved settings once before calling the job unrunnable.
  // A film is joined here, from its shots, by no model's engine; a finishing action by its tool.
  let engine = row.film
    ? filmEngine(ctx.media, ctx.storage, row.film)
    : row.finish
      ? isLocalFinishingTool(row.finish.tool)
        ? finishEngine(ctx.media, ctx.storage, row.finish)
        : ctx.engines.finishingEngine(row.finish.tool)
      : ctx.engines.get(row.model);
  if (!engine) {
    await applySavedSettings(ctx).catch((error: unknown) =>
      log.warn({ err: error }, 'Could not read the saved settings'),
    );
    engine = row.finish ? ctx.engines.finishingEngine(row.finish.tool) : ctx.engines.get(row.model);
  }
  if (!engine) {
    // An engine that cannot run is the system's failure, not the user's.
    ctx.metrics.providerErrors.inc({ model: row.model, kind: 'no_engine' });
    await removeJobCopies(ctx, row);
    const failed = await lifecycle.failForGood(
      ctx,
      job,
      'This server can no longer render with this model: its provider keys were removed.',
      'system',
    );
    tellOwner(ctx, failed, log);
    observe('failed');
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
  const progress = progressWriter(ctx, worker, job, controller);
  const context: EngineContext = {
    workDir,
    signal: controller.signal,
    reportProgress: progress.report,
    saveProviderTask: async (taskId) => {
      if (!(await lifecycle.saveProviderTask(ctx, job, taskId))) controller.abort('gone' satisfies StopReason);
    },
  };
  const keys = {
    video: lifecycle.outputKeyFor(row.userId, row.id, 'mp4'),
    poster: lifecycle.outputKeyFor(row.userId, row.id, 'jpg'),
  };
  try {
    log.info('render started');
    const started = Date.now();
    const result = await untilAborted(
      engine.render(engineJobFor(ctx, row), context),
      controller.signal,
      () => new AbortedError(),
    );
    // Extend: the continuation is joined to the original into one video before it is stored; the
    // provider's own extend call already answered the whole longer video.
    const file =
      row.extension && row.extension.method !== 'provider'
        ? await joinExtension(ctx.media, ctx.storage, row.extension, result.filePath, {
            hasAudio: row.hasAudio,
            workDir,
            signal: controller.signal,
            onProgress: (fraction) => progress.report(90 + fraction * 6, 'Joining the videos'),
          })
        : result.filePath;
    await progress.flush(97, 'Saving video');
    if (controller.signal.aborted) throw new AbortedError();
    const screened: { hold: ReviewHold | null } = { hold: null };
    const stored = await storeOutput(ctx.media, ctx.storage, file, {
      hasAudio: row.hasAudio,
      keys,
      signal: controller.signal,
      label: visibleLabelFor(ctx, row),
      screen: async (video, durationSeconds) => {
        const findings = await screenRenderedVideo(ctx, video, { durationSeconds, signal: controller.signal });
        if (!findings) return;
        log.warn({ moderation: findings }, 'video flagged for review');
        screened.hold = { findings, heldAt: ctx.now().toISOString(), stage: 'output' };
      },
      sign: (video) => signGenerationVideo(ctx, row, video),
    });
    const output = {
      outputKey: stored.outputKey,
      posterKey: stored.posterKey,
      outputDuration: stored.durationSeconds,
      credentials: stored.credentials,
    };
    // A flagged video is kept, not shown: an administrator approves or rejects it (issue 43).
    const { hold } = screened;
    const done = hold
      ? await lifecycle.holdFinishedGeneration(ctx, job, output, hold)
      : await lifecycle.completeGeneration(ctx, job, output);
    if (!done) throw new AbortedError();
    await removeJobCopies(ctx, row);
    log.info({ ms: Date.now() - started, duration: stored.durationSeconds, held: hold !== null }, 'render completed');
    if (!hold) tellOwner(ctx, { ...row, status: 'completed', errorMessage: null }, log);
    observe('completed');
  } catch (error) {
    await Promise.all([ctx.storage.delete(keys.video), ctx.storage.delete(keys.poster)]).catch(() => undefined);
    observe(await handleFailure(ctx, { worker, job, row }, controller, error, log, budgetMs));
  } finally {
    clearTimeout(budget);
    clearInterval(heartbeat);
    await removeWorkDir(workDir);
  }
}

/** Removes the copies a job was given to work on, once it no longer needs them. */
async function removeJobCopies(ctx: ServiceContext, row: GenerationRow): Promise<void> {
  await Promise.all(jobCopiesOf(row).map((key) => ctx.storage.delete(key).catch(() => undefined)));
}

async function handleFailure(
  ctx: ServiceContext,
  { worker, job, row }: { worker: JobWorker; job: lifecycle.LeasedJob; row: GenerationRow },
  controller: AbortController,
  error: unknown,
  log: FastifyBaseLogger,
  budgetMs: number,
): Promise<JobOutcome> {
  // Failed for good: no attempt will read the copies it was given (a re-run copies nothing of them),
  // so they go first, before its owner hears it failed.
  const failForGood = async (message: string, cause: Parameters<typeof lifecycle.failForGood>[3]) => {
    await removeJobCopies(ctx, row);
    return lifecycle.failForGood(ctx, job, message, cause);
  };
  if (error instanceof ContentBlockedError && !controller.signal.aborted) {
    // Never shown: no file was stored. Whether its charge comes back is REFUND_BLOCKED_GENERATIONS.
    log.warn({ moderation: error.findings }, 'video blocked');
    tellOwner(ctx, await failForGood(BLOCKED_OUTPUT_MESSAGE, 'blocked'), log);
    return 'failed';
  }
  if (controller.signal.aborted || error instanceof AbortedError) {
    if (controller.signal.reason === 'shutdown') {
      if (await queue.release(ctx.db, row.id, worker.id)) await announce(ctx, row, log, { generation: true });
      log.info('released on shutdown');
      return 'released';
    }
    if (controller.signal.reason === 'timeout') {
      // Not retried: what made it this slow (usually an input) would make the next attempt as slow.
      // Still this server's limit, not the user's doing: the refund policy treats it as a system failure.
      log.warn({ budgetMs }, 'job stopped: over its time budget');
      ctx.metrics.providerErrors.inc({ model: row.model, kind: 'timeout' });
      tellOwner(ctx, await failForGood(budgetExceededMessage(budgetMs), 'system'), log);
      return 'failed';
    }
    log.info('stopped: the job was deleted, cancelled or taken over');
    return 'stopped';
  }
  const failure =
    error instanceof EngineError
      ? error
      : new EngineError(
          'Something went wrong while making your video. Please try again.',
          true,
          String(error),
          false,
          'provider',
        );
  log.warn({ err: error, detail: failure.detail, retryable: failure.retryable, kind: failure.kind }, 'render failed');
  ctx.metrics.providerErrors.inc({ model: row.model, kind: failure.kind });
  if (failure.retryable && row.attempts < lifecycle.MAX_ATTEMPTS) {
    const delay = worker.config.retryDelaySeconds * row.attempts;
    const queued = await lifecycle.retryGeneration(ctx, job, {
      delaySeconds: delay,
      stage: 'Retrying after a temporary problem',
      restartTask: failure.restartTask,
    });
    if (queued) await announce(ctx, row, log, { generation: false });
    return 'retried';
  }
  const cause = USER_FAILURE_KINDS.has(failure.kind) ? 'user' : 'system';
  tellOwner(ctx, await failForGood(failure.message, cause), log);
  return 'failed';
}

/** Tells the owner of a job that ended (completed, or failed for good) by push or e-mail; never waits for it. */
export function tellOwner(ctx: ServiceContext, row: GenerationRow | null, log: FastifyBaseLogger): void {
  if (!row || (row.status !== 'completed' && row.status !== 'failed')) return;
  notifyVideoFinished(
    ctx,
    {
      userId: row.userId,
      generationId: row.id,
      outcome: row.status,
      description: row.prompt,
      reason: row.errorMessage,
    },
    log,
  );
}

/**
 * A job went back to the queue: everyone waiting hears that the queue moved (and, for a job handed
 * back on shutdown, its owner hears of it too), right after the change; never fails the job.
 */
async function announce(
  ctx: ServiceContext,
  row: GenerationRow,
  log: FastifyBaseLogger,
  tell: { generation: boolean },
): Promise<void> {
  try {
    if (tell.generation) await publishGenerationChange(ctx.db, row.userId, row.id);
    await publishQueueMoved(ctx);
  } catch (error) {
    log.warn({ err: error }, 'could not announce a job change');
  }
}
