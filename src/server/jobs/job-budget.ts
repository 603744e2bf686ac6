import type { ModelId } from '../../shared/money/pricing';
import type { Config, WorkerConfig } from '../config';

/**
 * How long one attempt of a job may run before the worker stops it and fails it: the worker's own
 * budget (WORKER_JOB_TIMEOUT_SECONDS), plus the provider's timeout for jobs a provider renders.
 * One stuck job (an input FFmpeg cannot finish, a call that never answers) then frees its slot.
 */
export function jobBudgetMs(
  worker: Pick<WorkerConfig, 'jobTimeoutSeconds'>,
  providers: Config['providers'],
  model: ModelId,
): number {
  const own = worker.jobTimeoutSeconds * 1000;
  return model === 'local' ? own : own + providers.timeoutMs;
}

/** The longest any job may run: a work folder older than this belongs to no running job. */
export function longestJobBudgetMs(config: Pick<Config, 'worker' | 'providers'>): number {
  return config.worker.jobTimeoutSeconds * 1000 + config.providers.timeoutMs;
}

/** "10 minutes", "90 seconds": a budget in the words of the failure message. */
export function budgetInWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 === 0 && seconds >= 120) return `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** The failed job's message when its budget ran out. */
export function budgetExceededMessage(ms: number): string {
  return (
    `Making this video took longer than ${budgetInWords(ms)}, so it was stopped. ` +
    'If you used an uploaded video or audio file, check that it plays, then try again.'
  );
}
