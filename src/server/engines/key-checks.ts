import type { ProviderKeys } from '../../shared/installation-settings';
import type { ProviderDefaults } from '../config-providers';
import { signKlingToken } from './kling-engine';
import { joinUrl } from './provider-http';

/**
 * One harmless call per provider that a key must pass before it is saved (issue 45): it reads, it
 * makes nothing and costs nothing. Each is the provider's documented read with the same
 * authentication the engine uses:
 * - fal.ai: GET {FAL_API_URL}/v1/models/pricing?endpoint_id=fal-ai/veo3, `Authorization: Key <key>`
 *   ("Authentication: Required", https://docs.fal.ai/platform-apis/v1/models/pricing).
 * - Replicate: GET {base}/v1/account, `Authorization: Bearer <token>` (https://replicate.com/docs/reference/http#account.get).
 * - Gemini: GET {base}/v1beta/models?pageSize=1, `x-goog-api-key` (https://ai.google.dev/api/models#method:-models.list).
 * - Kling: GET {base}/v1/videos/text2video?pageNum=1&pageSize=1 with the JWT the engine signs (the
 *   task list query of Kling's API reference).
 * - ComfyUI: GET {url}/system_stats, which every ComfyUI server answers with its `system` and `devices`.
 * - An OpenAI-compatible text model: GET {base}/models (https://platform.openai.com/docs/api-reference/models/list;
 *   Ollama answers it at /v1/models), whose list must hold the model named.
 */

/** The provider accepted the keys; refused them (the provider's reason); or could not be asked. */
export type KeyCheck = { ok: true } | { ok: false; refused: boolean; reason: string };

const CHECK_TIMEOUT_MS = 10_000;
/** A provider's refusal is read up to this much. */
const MAX_BODY_BYTES = 64 * 1024;

interface Probe {
  url: string;
  headers: Record<string, string>;
  /** Whether a 2xx body is the provider's answer (ComfyUI: anything else on that address is not ComfyUI). */
  answers?: (body: unknown) => boolean;
  /** Why a 2xx body is not (default: not ComfyUI's answer). */
  notAnswered?: (body: unknown) => string;
}

/** The model ids of an OpenAI-style list (`{object: 'list', data: [{id}]}`). */
function modelsOf(body: unknown): string[] {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(data)
    ? data.flatMap((m) =>
        typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string'
          ? [(m as { id: string }).id]
          : [],
      )
    : [];
}

function probeOf(defaults: ProviderDefaults, keys: ProviderKeys): Probe {
  switch (keys.provider) {
    case 'fal':
      return {
        url: joinUrl(defaults.falApiUrl, '/v1/models/pricing?endpoint_id=fal-ai/veo3'),
        headers: { authorization: `Key ${keys.apiKey}` },
      };
    case 'replicate':
      return {
        url: joinUrl(defaults.replicateBaseUrl, '/v1/account'),
        headers: { authorization: `Bearer ${keys.apiToken}` },
      };
    case 'gemini':
      return {
        url: joinUrl(defaults.geminiBaseUrl, '/v1beta/models?pageSize=1'),
        headers: { 'x-goog-api-key': keys.apiKey },
      };
    case 'kling':
      return {
        url: joinUrl(defaults.klingBaseUrl, '/v1/videos/text2video?pageNum=1&pageSize=1'),
        headers: { authorization: `Bearer ${signKlingToken(keys.accessKey, keys.secretKey)}` },
      };
    case 'llm':
      return {
        url: joinUrl(keys.url, '/models'),
        headers: keys.apiKey ? { authorization: `Bearer ${keys.apiKey}` } : {},
        answers: (body) => modelsOf(body).includes(keys.model),
        notAnswered: (body) => {
          const names = modelsOf(body);
          return names.length > 0
            ? `it has no model named ${keys.model} (it has ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`
            : 'the address answered, but not with the list of models an OpenAI-compatible server gives';
        },
      };
    case 'comfyui':
      return {
        url: joinUrl(keys.url, '/system_stats'),
        headers: {},
        answers: (body) => typeof body === 'object' && body !== null && 'system' in body,
      };
  }
}

/** The provider's own words from an error answer: fal `detail`, Google `error.message`, Kling `message`, Replicate `detail`. */
export function providerReason(body: unknown, status: number): string {
  const pick = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);
  let reason: string | undefined;
  if (typeof body === 'string') reason = pick(body);
  else if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const error = record.error;
    reason =
      pick(record.detail) ??
      (typeof error === 'object' && error !== null ? pick((error as Record<string, unknown>).message) : pick(error)) ??
      pick(record.message) ??
      pick(record.title);
    // fal's validation answers: detail [{msg}]
    if (!reason && Array.isArray(record.detail))
      reason = pick((record.detail[0] as { msg?: unknown } | undefined)?.msg);
  }
  const text = (reason ?? `it answered HTTP ${status}`).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

async function readBody(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 300);
  }
}

/** Asks the provider whether these keys work. Never throws; gives up after 10 seconds. */
export async function checkProviderKeys(
  defaults: ProviderDefaults,
  keys: ProviderKeys,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<KeyCheck> {
  const probe = probeOf(defaults, keys);
  let response: Response;
  try {
    response = await fetch(probe.url, {
      headers: { accept: 'application/json', ...probe.headers },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    return {
      ok: false,
      refused: false,
      reason: timedOut
        ? `no answer within ${Math.round(timeoutMs / 1000)} seconds`
        : (cause ?? 'the connection failed'),
    };
  }
  const body = await readBody(response).catch(() => '');
  if (response.ok) {
    if (probe.answers && !probe.answers(body))
      return {
        ok: false,
        refused: true,
        reason: probe.notAnswered?.(body) ?? 'the address answered, but not as a ComfyUI server does',
      };
    return { ok: true };
  }
  // 401 and 403 (and Google's 400 for a key it does not know) are the provider refusing the key.
  const refused =
    response.status === 401 ||
    response.status === 403 ||
    (keys.provider === 'gemini' && response.status === 400) ||
    ((keys.provider === 'comfyui' || keys.provider === 'llm') && response.status === 404);
  return { ok: false, refused, reason: providerReason(body, response.status) };
}
