import type { z } from 'zod';
import type { AppError } from '../lib/app-error';
import { type AiPart, joinUrl, type JsonAsk, parseJsonAnswer, postForJson, refused } from './ai-request';

export type GeminiPart = AiPart;

/** The schema goes as generationConfig.responseJsonSchema. */
export interface GeminiJsonRequest<T> extends JsonAsk<T> {
  apiKey: string;
  baseUrl: string;
  model: string;
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

/**
 * One generateContent call that must answer JSON of a known shape. Every failure becomes an
 * AppError a user can read, and none names the key: blocked (502 ai_blocked), unreadable or
 * wrong shape (502 ai_bad_answer), quota after the retries (503 ai_busy with Retry-After: the
 * quota is this server's, not the caller's), anything else (502 ai_unavailable).
 */
export async function generateJson<T>(request: GeminiJsonRequest<T>): Promise<T> {
  const answer = await postForJson({
    url: joinUrl(request.baseUrl, `v1beta/models/${encodeURIComponent(request.model)}:generateContent`),
    headers: { 'x-goog-api-key': request.apiKey },
    body: JSON.stringify({
      contents: [{ role: 'user', parts: request.parts }],
      systemInstruction: { parts: [{ text: request.systemInstruction }] },
      generationConfig: {
        temperature: request.temperature ?? 0.4,
        responseMimeType: 'application/json',
        responseJsonSchema: request.responseJsonSchema,
      },
    }),
    isRetryable: (status) => RETRYABLE.has(status),
    retryAfterInBody: retryInfoOf,
    signal: request.signal,
    retryDelayMs: request.retryDelayMs,
    maxRetries: request.maxRetries,
    timeoutMs: request.timeoutMs,
  });
  return readAnswer(answer, request.schema);
}

/** Gemini's RetryInfo ("17s") in a 429's error details, in seconds. */
function retryInfoOf(body: unknown): number | undefined {
  const details = (body as { error?: { details?: { retryDelay?: unknown }[] } } | null)?.error?.details;
  const info = details?.find((d) => typeof d.retryDelay === 'string')?.retryDelay;
  return typeof info === 'string' ? Number.parseFloat(info) : undefined;
}

function readAnswer<T>(raw: unknown, schema: z.ZodType<T>): T {
  const answer = (typeof raw === 'object' && raw !== null ? raw : {}) as GeminiAnswer;
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason) throw refusedFor(blockReason);
  const candidate = answer.candidates?.[0];
  const finishReason = candidate?.finishReason ?? '';
  if (Object.hasOwn(REFUSALS, finishReason)) throw refusedFor(finishReason);
  // Thought summaries (only sent when asked for) are not the answer.
  const text = (candidate?.content?.parts ?? [])
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
  return parseJsonAnswer(text, schema, finishReason === 'MAX_TOKENS');
}

function refusedFor(reason: string): AppError {
  return refused(
    (Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason] : undefined) ?? reason.toLowerCase().replaceAll('_', ' '),
  );
}
