import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';

/**
 * What the AI clients (Gemini in gemini-text.ts, an OpenAI-compatible server in openai-text.ts)
 * share: one POST with a time limit per try, retries with backoff, and the readable AppErrors the
 * prompts routes answer with. None of them names the key or echoes the service's answer: both may
 * carry secrets or request details.
 */

/** What a caller of the AI helpers may set per call. */
export interface AiCallOptions {
  /** Backoff before a rate-limited AI call is sent again (tests make it short). */
  retryDelayMs?: number;
  signal?: AbortSignal;
}

/**
 * A piece of the user's message: text, or an image's bytes (base64) with their type. This is
 * Gemini's part shape; the OpenAI-compatible client turns it into content parts.
 */
export type AiPart = { text: string } | { inlineData: { mimeType: string; data: string } };

/** How one AI call is sent: limits, cancellation and retries. */
export interface AiSendOptions {
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
  /** First backoff before a retryable answer is sent again, doubled each time; 1000 ms unless set. */
  retryDelayMs?: number;
  /** Tries after the first; 2 unless set. */
  maxRetries?: number;
  /** Per try; 60 s unless set. */
  timeoutMs?: number;
}

/** A question whose answer must be JSON of a known shape, whichever service answers it. */
export interface JsonAsk<T> extends AiSendOptions {
  systemInstruction: string;
  parts: AiPart[];
  /** JSON Schema the answer must follow, sent to the service. */
  responseJsonSchema: Record<string, unknown>;
  /** Checks the parsed answer; a mismatch is a 502 ai_bad_answer. */
  schema: z.ZodType<T>;
  temperature?: number;
}

export interface AiPost extends AiSendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Answers worth sending again after a pause. */
  isRetryable: (status: number) => boolean;
  /** Seconds the service asks to wait, from a 429's body (Gemini's RetryInfo); the Retry-After header wins. */
  retryAfterInBody?: (body: unknown) => number | undefined;
}

const DEFAULT_RETRY_AFTER_SECONDS = 60;

export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/**
 * Posts until a 2xx answer and resolves to its JSON (null when it is not JSON). A 429 past the
 * retries is 503 ai_busy with Retry-After (the quota is this server's, not the caller's); any other
 * failure is 502 ai_unavailable.
 */
export async function postForJson(post: AiPost): Promise<unknown> {
  const maxRetries = post.maxRetries ?? 2;
  const delay = post.retryDelayMs ?? 1000;
  for (let attempt = 0; ; attempt += 1) {
    const response = await send(post);
    if (response.ok) return response.json().catch(() => null);
    if (post.isRetryable(response.status) && attempt < maxRetries) {
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay * 2 ** attempt, undefined, { signal: post.signal }).catch(() => {
        throw unavailable('The AI request was cancelled.');
      });
      continue;
    }
    if (response.status === 429) {
      const retryAfter = await retryAfterOf(response, post.retryAfterInBody);
      throw new AppError(503, 'ai_busy', 'The AI service is busy right now. Please try again in a minute.', {
        'retry-after': String(retryAfter),
      });
    }
    await response.body?.cancel().catch(() => undefined);
    throw unavailable(`The AI service answered with an error (${response.status}). Please try again later.`);
  }
}

async function send(post: AiPost): Promise<Response> {
  const timeout = AbortSignal.timeout(post.timeoutMs ?? 60_000);
  try {
    return await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...post.headers },
      body: post.body,
      signal: post.signal ? AbortSignal.any([post.signal, timeout]) : timeout,
    });
  } catch {
    // Never pass the fetch error on: its cause may carry request details.
    if (post.signal?.aborted) throw unavailable('The AI request was cancelled.');
    if (timeout.aborted) throw unavailable('The AI service did not answer in time. Please try again.');
    throw unavailable('The AI service could not be reached. Please try again.');
  }
}

function unavailable(message: string): AppError {
  return new AppError(502, 'ai_unavailable', message);
}

/** Seconds to wait, from a Retry-After header or the service's own hint in the body, within 1..300. */
async function retryAfterOf(response: Response, inBody: AiPost['retryAfterInBody']): Promise<number> {
  const header = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  const body: unknown = await response.json().catch(() => null);
  const fromBody = inBody?.(body) ?? Number.NaN;
  const seconds = Number.isFinite(header) ? header : Number.isFinite(fromBody) ? fromBody : DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(300, Math.max(1, Math.ceil(seconds)));
}

/** 502 ai_blocked: the model refused, with the reason in the user's words. */
export function refused(words: string): AppError {
  return new AppError(502, 'ai_blocked', `The AI refused this request: ${words}.`);
}

/**
 * The model's text as the answer's shape: JSON (a Markdown fence around it tolerated), checked by
 * `schema`. Unreadable or wrongly shaped is 502 ai_bad_answer; `cutShort` says why when the model
 * ran out of room.
 */
export function parseJsonAnswer<T>(text: string, schema: z.ZodType<T>, cutShort: boolean): T {
  let value: unknown;
  try {
    value = JSON.parse(stripFence(text));
  } catch {
    const cut = cutShort ? ' It was cut short.' : '';
    throw new AppError(502, 'ai_bad_answer', `The AI sent an answer we could not read.${cut} Please try again.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError(502, 'ai_bad_answer', 'The AI sent an incomplete answer. Please try again.');
  return parsed.data;
}

/** JSON mode should not wrap the answer in a Markdown fence, but tolerate one. */
function stripFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  return fenced?.[1] ?? trimmed;
}
