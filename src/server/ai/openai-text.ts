import type { z } from 'zod';
import { type AiPart, joinUrl, type JsonAsk, parseJsonAnswer, postForJson, refused } from './ai-request';

/**
 * The same question as gemini-text.ts, asked of any server that speaks OpenAI's Chat Completions
 * API (https://platform.openai.com/docs/api-reference/chat/create): Ollama, vLLM, llama.cpp's
 * server, LM Studio, or OpenAI itself. Same AppErrors, so the routes answer the same way.
 */
export interface ChatJsonRequest<T> extends JsonAsk<T> {
  /** The API's base, the part before /chat/completions (http://localhost:11434/v1 for Ollama). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer` only when set: a local server usually needs none. */
  apiKey: string | undefined;
  /** response_format.json_schema.name: letters, digits, _ and - (at most 64). */
  schemaName: string;
}

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

interface ChatAnswer {
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
}

/**
 * One Chat Completions call that must answer JSON of a known shape: refused (502 ai_blocked),
 * unreadable or wrong shape (502 ai_bad_answer, "cut short" when it ran out of tokens), busy after
 * the retries (503 ai_busy with Retry-After), anything else (502 ai_unavailable). No error names
 * the key or echoes the server's answer.
 */
export async function generateChatJson<T>(request: ChatJsonRequest<T>): Promise<T> {
  const answer = await postForJson({
    url: joinUrl(request.baseUrl, 'chat/completions'),
    headers: request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {},
    body: JSON.stringify({
      model: request.model,
      messages: [
        { role: 'system', content: request.systemInstruction },
        { role: 'user', content: userContent(request.parts) },
      ],
      temperature: request.temperature ?? 0.4,
      response_format: {
        type: 'json_schema',
        json_schema: { name: request.schemaName, schema: request.responseJsonSchema },
      },
    }),
    // Self-hosted servers answer 502/504 from a proxy in front of them while a model loads.
    isRetryable: (status) => status === 429 || status >= 500,
    signal: request.signal,
    retryDelayMs: request.retryDelayMs,
    maxRetries: request.maxRetries,
    timeoutMs: request.timeoutMs,
  });
  return readAnswer(answer, request.schema);
}

/**
 * Plain text when there is no image: the oldest servers (early Ollama) take only a string. Images
 * go as data: URLs in image_url parts, the vision message format; the server never fetches anything.
 */
function userContent(parts: AiPart[]): string | ContentPart[] {
  if (parts.every((part) => 'text' in part)) return parts.map((part) => ('text' in part ? part.text : '')).join('\n');
  return parts.map((part): ContentPart =>
    'text' in part
      ? { type: 'text', text: part.text }
      : {
          type: 'image_url',
          image_url: { url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}` },
        },
  );
}

function readAnswer<T>(raw: unknown, schema: z.ZodType<T>): T {
  const answer = (typeof raw === 'object' && raw !== null ? raw : {}) as ChatAnswer;
  const choice = answer.choices?.[0];
  const refusal = choice?.message?.refusal;
  // The refusal's own words stay out of the error: they may repeat the request.
  if (typeof refusal === 'string' && refusal.trim()) throw refused('the model declined to answer');
  if (choice?.finish_reason === 'content_filter') throw refused('content filter');
  const content = choice?.message?.content;
  return parseJsonAnswer(
    withoutThinking(typeof content === 'string' ? content : ''),
    schema,
    choice?.finish_reason === 'length',
  );
}

/** Reasoning models served without a reasoning parser put their thinking first, between <think> tags. */
function withoutThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
}
