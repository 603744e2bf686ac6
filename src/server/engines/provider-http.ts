import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { EngineError, sleep, throwIfAborted, type EngineInput } from './engine';

/** Shown when a provider does not finish in time; the job-level retry may resume the task later. */
export const PROVIDER_TIMEOUT_MESSAGE = 'The video provider took too long to answer. Please try again.';

const DEFAULT_RETRY_BASE_DELAY_MS = 1000;
const DEFAULT_MAX_TRIES = 4;
// Generous because a start request may carry a base64 image of up to ~67 MB.
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** How one provider's failed answers are retried and explained. */
export interface ProviderPolicy {
  /** Named in messages about network failures, e.g. 'Veo'. */
  providerName: string;
  /** Whether a failed answer is worth trying again within this call. */
  shouldRetry(status: number, body: unknown): boolean;
  /** The error for an answer that failed for good (after the retries). */
  toError(status: number, body: unknown): EngineError;
}

export interface JsonRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  signal: AbortSignal;
  policy: ProviderPolicy;
  /** First backoff delay, doubled on each retry; 1000 ms unless set. */
  retryBaseDelayMs?: number;
  maxTries?: number;
  /** Per try. */
  timeoutMs?: number;
}

type TryOutcome = { kind: 'answer'; status: number; body: unknown } | { kind: 'network'; error: unknown };

/**
 * Sends a JSON request and returns the parsed body of a 2xx answer. Retries what the policy calls
 * retryable with exponential backoff (at most 4 tries), and throws an EngineError for the final
 * failure, or AbortedError when the signal fires.
 */
export async function requestJson(request: JsonRequest): Promise<unknown> {
  const maxTries = request.maxTries ?? DEFAULT_MAX_TRIES;
  const baseDelay = request.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await tryOnce(request);
    const last = attempt >= maxTries;
    if (outcome.kind === 'answer') {
      if (outcome.status >= 200 && outcome.status < 300) return outcome.body;
      if (last || !request.policy.shouldRetry(outcome.status, outcome.body)) {
        throw request.policy.toError(outcome.status, outcome.body);
      }
    } else if (last || request.method !== 'GET') {
      // A POST that failed on the network may still have reached the provider: sending it again
      // here could start (and bill) a second render, so leave it to the job-level retry.
      throw networkError(request.policy.providerName, outcome.error);
    }
    await sleep(baseDelay * 2 ** (attempt - 1), request.signal);
  }
}

async function tryOnce(request: JsonRequest): Promise<TryOutcome> {
  throwIfAborted(request.signal);
  const timeout = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const signal = AbortSignal.any([request.signal, timeout]);
  try {
    const hasBody = request.body !== undefined;
    const response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      body: hasBody ? JSON.stringify(request.body) : undefined,
      signal,
    });
    const text = await response.text();
    return { kind: 'answer', status: response.status, body: parseJson(text) };
  } catch (error) {
    throwIfAborted(request.signal);
    return { kind: 'network', error };
  }
}

/** The parsed JSON, or the raw text when the answer is not JSON (an HTML error page, say). */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function networkError(providerName: string, error: unknown): EngineError {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new EngineError(PROVIDER_TIMEOUT_MESSAGE, true, detail, false, 'timeout');
  }
  return new EngineError(`Could not reach ${providerName}. Please try again.`, true, detail);
}

/** Whether an HTTP status is worth trying again (408, 429 and 5xx). */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Runs `work` with a signal that also fires after `timeoutMs`, and turns that deadline into a
 * retryable EngineError; the caller's own abort still surfaces as AbortedError.
 */
export async function withDeadline<T>(
  signal: AbortSignal,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return await work(AbortSignal.any([signal, deadline.signal]));
  } catch (error) {
    if (deadline.signal.aborted && !signal.aborted)
      throw new EngineError(PROVIDER_TIMEOUT_MESSAGE, true, undefined, false, 'timeout');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Streams a URL's body into a file (following redirects) without holding it in memory. Network
 * failures and 408/429/5xx answers are retryable; other answers are not.
 */
export async function downloadToFile(
  url: string,
  headers: Record<string, string>,
  filePath: string,
  signal: AbortSignal,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  throwIfAborted(signal);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS);
  const combined = AbortSignal.any([signal, timeout]);
  try {
    const response = await fetch(url, { headers, redirect: 'follow', signal: combined });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new EngineError(
        'Could not download the finished video from the provider.',
        isTransientStatus(response.status),
        `GET ${new URL(url).origin} answered ${response.status}`,
      );
    }
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    await pipeline(body, createWriteStream(filePath), { signal: combined });
  } catch (error) {
    await rm(filePath, { force: true });
    throwIfAborted(signal);
    if (error instanceof EngineError) throw error;
    if (timeout.aborted) throw new EngineError(PROVIDER_TIMEOUT_MESSAGE, true, 'download timed out', false, 'timeout');
    throw networkError('the video provider', error);
  }
}

/** Reads an input into memory, refusing one larger than `maxBytes` without reading all of it. */
export async function readInputBytes(input: EngineInput, maxBytes: number, tooLargeMessage: string): Promise<Buffer> {
  const stream = await input.open();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new EngineError(tooLargeMessage, false);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Progress while a provider renders: starts at 10 and creeps toward 90 (never reaching it), half
 * way after `typicalMs`, because providers report no progress of their own.
 */
export function estimateProgress(elapsedMs: number, typicalMs: number): number {
  const fraction = Math.max(0, elapsedMs) / (Math.max(0, elapsedMs) + typicalMs);
  return Math.min(89, Math.round(10 + 80 * fraction));
}

/** Joins a base URL that may or may not end with '/' and a path that may or may not start with one. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A short, readable text of a failed answer's body for an error's detail. */
export function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (text ?? '').slice(0, 500);
}
