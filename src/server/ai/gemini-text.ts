import type { z } from 'zod';
import { AppError } from '../lib/app-error';

export type GeminiPart = { text: string } | { inlineData: { mimeType: string; data: string } };

export interface GeminiJsonRequest<T> {
  apiKey: string;
  baseUrl: string;
  model: string;
  systemInstruction: string;
  parts: GeminiPart[];
  /** JSON Schema for the answer (sent as responseJsonSchema). */
  responseJsonSchema: object;
  /** Checks the parsed answer. */
  schema: z.ZodType<T>;
  /** Backoff before a 429 is retried (two retries). */
  retryDelayMs?: number;
  timeoutMs?: number;
}

interface GeminiAnswer {
  candidates?: { content?: { parts?: { text?: string }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}

const BLOCKING_FINISH = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_SAFETY']);

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/**
 * One generateContent call that must answer JSON of a known shape. Every failure becomes an
 * AppError a user can read: blocked (502 ai_blocked), unreadable (502 ai_bad_answer), busy
 * (503 ai_busy after two retries of a 429) or unavailable (502 ai_unavailable).
 */
export async function generateJson<T>(request: GeminiJsonRequest<T>): Promise<T> {
  const url = joinUrl(request.baseUrl, `v1beta/models/${encodeURIComponent(request.model)}:generateContent`);
  const body = JSON.stringify({
    contents: [{ role: 'user', parts: request.parts }],
    systemInstruction: { parts: [{ text: request.systemInstruction }] },
    generationConfig: { temperature: 0.4, responseMimeType: 'application/json', responseJsonSchema: request.responseJsonSchema },
  });
  const delay = request.retryDelayMs ?? 1000;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': request.apiKey },
        body,
        signal: AbortSignal.timeout(request.timeoutMs ?? 60_000),
      });
    } catch {
      throw new AppError(502, 'ai_unavailable', 'The AI service could not be reached. Please try again.');
    }
    if (response.status === 429 && attempt < 2) {
      await new Promise((resolve) => setTimeout(resolve, delay * 2 ** attempt));
      continue;
    }
    if (response.status === 429) {
      throw new AppError(503, 'ai_busy', 'The AI service is busy right now. Please try again in a minute.', { 'retry-after': '60' });
    }
    if (!response.ok) {
      throw new AppError(502, 'ai_unavailable', `The AI service answered with an error (${response.status}). Please try again.`);
    }
    return readAnswer((await response.json().catch(() => ({}))) as GeminiAnswer, request.schema);
  }
}

function readAnswer<T>(answer: GeminiAnswer, schema: z.ZodType<T>): T {
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason) throw new AppError(502, 'ai_blocked', `The AI refused this request: ${humanise(blockReason)}.`);
  const candidate = answer.candidates?.[0];
  if (candidate?.finishReason && BLOCKING_FINISH.has(candidate.finishReason)) {
    throw new AppError(502, 'ai_blocked', `The AI refused this request: ${humanise(candidate.finishReason)}.`);
  }
  const text = candidate?.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(502, 'ai_bad_answer', 'The AI sent an answer we could not read. Please try again.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError(502, 'ai_bad_answer', 'The AI sent an incomplete answer. Please try again.');
  return parsed.data;
}

function humanise(reason: string): string {
  return reason.toLowerCase().replaceAll('_', ' ');
}
