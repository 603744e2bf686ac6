import type { Readable } from 'node:stream';
import type { FinishAction, UpscaleResolution } from '../../shared/finishing';
import type { AdvancedSettings } from '../../shared/generations';
import type { ModelId } from '../../shared/money/pricing';
import type { UploadKind } from '../../shared/uploads';
import { AbortedError } from '../lib/aborted-error';

/** One input the engine may read (an uploaded image, video or audio file). */
export interface EngineInput {
  contentType: string;
  /** An absolute URL the provider can fetch this input from (a signed link valid for some hours). */
  url: string;
  /** Streams the stored file. */
  open(): Promise<Readable>;
}

/** What an engine is asked to render: ids and values, never database rows. */
export interface EngineJob {
  id: string;
  prompt: string;
  /** Seconds, already moved to a duration this engine supports. */
  duration: number;
  hasAudio: boolean;
  isEconomy: boolean;
  settings: AdvancedSettings;
  inputs: Partial<Record<UploadKind, EngineInput>>;
  /** Keyframes: the end frame, for a model that takes one (`inputs.image` is then the start frame). */
  endImage?: EngineInput;
  /** Reference images (subject or character consistency), at most the model's `referenceImages`. */
  referenceImages?: EngineInput[];
  /**
   * Extend through the provider's own extend call: the original video, which the provider continues
   * and answers whole (the worker stores that as is). Only for a model whose catalogue names such a call.
   */
  extendVideo?: EngineInput;
  /**
   * Extend through a provider's call that names the original by its own id of it (Kling's
   * `video_id`): the provider task that made the original, as it was saved (`<endpoint>:<id>`).
   */
  extendFrom?: { providerTaskId: string };
  /**
   * A finishing action (issue 48) through a provider's tool: the original video (a signed link to our
   * copy) and what the action takes. Only for a finishing tool's engine.
   */
  finish?: {
    action: FinishAction;
    video: EngineInput;
    audio?: EngineInput;
    image?: EngineInput;
    prompt?: string;
    resolution?: UpscaleResolution;
    fps?: number;
    /** The original's length in seconds. */
    seconds: number;
  };
  /** The provider task a previous attempt started, to resume instead of starting (and paying) again. */
  providerTaskId: string | null;
  /** No attempt comes after this one: a provider task left behind by a failure here is cancelled. */
  lastAttempt?: boolean;
}

export interface EngineContext {
  /** A private folder for temporary files; removed by the worker afterwards. */
  workDir: string;
  /** Aborted when the job is deleted, its lease is lost or the worker shuts down. */
  signal: AbortSignal;
  /** 0-100 and a short stage label; the worker writes it at most once a second. */
  reportProgress(progress: number, stage: string): void;
  /** Saves the provider's task id as soon as the provider accepted the job. */
  saveProviderTask(taskId: string): Promise<void>;
}

export interface EngineResult {
  /** An MP4 file inside workDir. */
  filePath: string;
}

export interface VideoEngine {
  readonly id: ModelId;
  render(job: EngineJob, context: EngineContext): Promise<EngineResult>;
}

/**
 * What kind of failure it was, for the metrics and the refund policy: `policy` (a content-policy
 * refusal) and `input` (a bad or missing input) are the user's; every other kind is the system's.
 */
export type EngineErrorKind = 'policy' | 'input' | 'timeout' | 'unavailable' | 'auth' | 'provider';

/** Failures the user caused: never refunded (REFUND_FAILED_GENERATIONS gives back only the system's). */
export const USER_FAILURE_KINDS: ReadonlySet<EngineErrorKind> = new Set(['policy', 'input']);

/**
 * A failure an engine reports on purpose. `retryable` failures (rate limits, timeouts, a
 * provider's 5xx) are tried again with backoff; the others fail the job at once. The message is
 * shown to the user as the job's errorMessage.
 */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly detail?: string,
    /** The provider's task itself ended badly: a retry starts a new task instead of resuming it. */
    readonly restartTask = false,
    /** Unless named: a retryable failure is the provider being unavailable, another one the provider's failure. */
    readonly kind: EngineErrorKind = retryable ? 'unavailable' : 'provider',
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/**
 * Whether a stopped job should also be stopped at the provider: yes when it was deleted ('gone') or
 * ran out of time, not when the worker is only shutting down (another worker resumes the task).
 */
export function stoppedForGood(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason !== 'shutdown';
}

/**
 * Whether a failed render should cancel its provider task: the job was stopped for good, or this
 * was its last attempt (a retryable failure here, such as the provider's time limit, is final).
 */
export function shouldCancelTask(job: Pick<EngineJob, 'lastAttempt'>, signal: AbortSignal, error: unknown): boolean {
  if (stoppedForGood(signal)) return true;
  return Boolean(job.lastAttempt) && !signal.aborted && error instanceof EngineError;
}

/** Thrown when the abort signal fires; the worker decides what that means (deleted, shutting down). */
export { AbortedError };

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AbortedError();
}

/** Waits, unless the signal fires first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AbortedError());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
