import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';

export type GeminiPart = { text: string } | { inlineData: { mimeType: string; data: string } };

/** What a caller of the AI helpers may set per call. */
export interface AiCallOptions {
  /** Backoff before a rate-limited Gemini call is sent again (tests make it short). */
  retryDelayMs?: number;
  signal?: AbortSignal;
}

export interface GeminiJsonRequest<T> {
  apiKey: string;
  baseUrl: string;
  model: string;
  systemInstruction: string;
  parts: GeminiPart[];
  /** JSON Schema for the answer (sent as generationConfig.responseJsonSchema). */
  responseJsonSchema: Record<string, unknown>;
  /** Checks the parsed answer; a mismatch is a 502 ai_bad_answer. */
  schema: z.ZodType<T>;
  temperature?: number;
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
  /** First backoff before a 429/500/503 is sent again, doubled each time; 1000 ms unless set. */
  retryDelayMs?: number;
  /** Tries after the first; 2 unless set. */
  maxRetries?: number;
  /** Per try; 60 s unless set. */
  timeoutMs?: number;
}

interface GeminiAnswer {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}

/** Finish reasons that mean the model refused, with the words shown to the user. */
const REFUSALS: Record<string, string> = {
  SAFETY: 'safety',
  PROHIBITED_CONTENT: 'prohibited content',
  BLOCKLIST: 'blocked terms',
  SPII: 'sensitive personal information',
  RECITATION: 'it would repeat protected material',
  IMAGE_SAFETY: 'image safety',
  LANGUAGE: 'unsupported language',
};
/** Answers worth sending again: quota (429) and Gemini's transient overload (500, 503). */
const RETRYABLE = new Set([429, 500, 503]);
const DEFAULT_RETRY_AFTER_SECONDS = 60;

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/**
 * One generateContent call that must answer JSON of a known shape. Every failure becomes an
 * AppError a user can read, and none names the key: blocked (502 ai_blocked), unreadable or
 * wrong shape (502 ai_bad_answer), quota after the retries (503 ai_busy with Retry-After: the
 * quota is this server's, not the caller's), anything else (502 ai_unavailable).
 */
export async function generateJson<T>(request: GeminiJsonRequest<T>): Promise<T> {
  const url = joinUrl(request.baseUrl, `v1beta/models/${encodeURIComponent(request.model)}:generateContent`);
  const body = JSON.stringify({
    contents: [{ role: 'user', parts: request.parts }],
    systemInstruction: { parts: [{ text: request.systemInstruction }] },
    generationConfig: {
      temperature: request.temperature ?? 0.4,
      responseMimeType: 'application/json',
      responseJsonSchema: request.responseJsonSchema,
    },
  });
  const maxRetries = request.maxRetries ?? 2;
  const delay = request.retryDelayMs ?? 1000;
  for (let attempt = 0; ; attempt += 1) {
    const response = await send(url, body, request);
    if (response.ok) return readAnswer(await response.json().catch(() => null), request.schema);
    if (RETRYABLE.has(response.status) && attempt < maxRetries) {
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay * 2 ** attempt, undefined, { signal: request.signal }).catch(() => {
        throw unavailable('The AI request was cancelled.');
      });
      continue;
    }
    if (response.status === 429) {
      const retryAfter = await retryAfterOf(response);
      throw new AppError(503, 'ai_busy', 'The AI service is busy right now. Please try again in a minute.', {
        'retry-after': String(retryAfter),
      });
    }
    await response.body?.cancel().catch(() => undefined);
    throw unavailable(`The AI service answered with an error (${response.status}). Please try again later.`);
  }
}

async function send(url: string, body: string, request: GeminiJsonRequest<unknown>): Promise<Response> {
  const timeout = AbortSignal.timeout(request.timeoutMs ?? 60_000);
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': request.apiKey },
      body,
      signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
    });
  } catch {
    // Never pass the fetch error on: its cause may carry request details.
    if (request.signal?.aborted) throw unavailable('The AI request was cancelled.');
    if (timeout.aborted) throw unavailable('The AI service did not answer in time. Please try again.');
    throw unavailable('The AI service could not be reached. Please try again.');
  }
}

function unavailable(message: string): AppError {
  return new AppError(502, 'ai_unavailable', message);
}

/** Seconds to wait, from a Retry-After header or Gemini's RetryInfo ("17s"), within 1..300. */
async function retryAfterOf(response: Response): Promise<number> {
  const header = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  const body = (await response.json().catch(() => null)) as { error?: { details?: { retryDelay?: unknown }[] } } | null;
  const info = body?.error?.details?.find((d) => typeof d.retryDelay === 'string')?.retryDelay;
  const fromInfo = typeof info === 'string' ? Number.parseFloat(info) : Number.NaN;
  const seconds = Number.isFinite(header) ? header : Number.isFinite(fromInfo) ? fromInfo : DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(300, Math.max(1, Math.ceil(seconds)));
}

function readAnswer<T>(raw: unknown, schema: z.ZodType<T>): T {
  const answer = (typeof raw === 'object' && raw !== null ? raw : {}) as GeminiAnswer;
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason) throw refused(blockReason);
  const candidate = answer.candidates?.[0];
  const finishReason = candidate?.finishReason ?? '';
  if (Object.hasOwn(REFUSALS, finishReason)) throw refused(finishReason);
  // Thought summaries (only sent when asked for) are not the answer.
  const text = (candidate?.content?.parts ?? [])
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
  let value: unknown;
  try {
    value = JSON.parse(stripFence(text));
  } catch {
    const cut = finishReason === 'MAX_TOKENS' ? ' It was cut short.' : '';
    throw new AppError(502, 'ai_bad_answer', `The AI sent an answer we could not read.${cut} Please try again.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError(502, 'ai_bad_answer', 'The AI sent an incomplete answer. Please try again.');
  return parsed.data;
}

function refused(reason: string): AppError {
  const words =
    (Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason] : undefined) ?? reason.toLowerCase().replaceAll('_', ' ');
  return new AppError(502, 'ai_blocked', `The AI refused this request: ${words}.`);
}

/** JSON mode should not wrap the answer in a Markdown fence, but tolerate one. */
function stripFence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  return fenced?.[1] ?? trimmed;
}
