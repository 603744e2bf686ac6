import { z } from 'zod';

/**
 * An OpenAI-compatible chat server for AI Enhance and image analysis (issue 34): Ollama, vLLM,
 * llama.cpp's server, LM Studio, or OpenAI itself. config.ts spreads `llmEnv` into its schema and
 * calls readLlmConfig; nothing here reads process.env.
 */
const blankIsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

export const llmEnv = {
  /** The API's base, the part before /chat/completions (http://localhost:11434/v1 for Ollama); unset: off. */
  LLM_BASE_URL: z.preprocess(
    blankIsUnset,
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://localhost:11434/v1' }).optional(),
  ),
  /** The model's name on that server; needed with LLM_BASE_URL. */
  LLM_MODEL: optionalText,
  /** Sent as `Authorization: Bearer`; most local servers need none. */
  LLM_API_KEY: optionalText,
  /** One try may take this long; a model on a CPU describing an image can take a while. */
  LLM_TIMEOUT_SECONDS: z.preprocess(
    blankIsUnset,
    z.coerce.number({ error: 'must be a number of seconds' }).min(0.1).max(600).default(60),
  ),
};

type LlmEnv = z.output<z.ZodObject<typeof llmEnv>>;

export interface LlmConfig {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** The server's settings, undefined when LLM_BASE_URL is unset, or a sentence saying what is missing. */
export function readLlmConfig(env: LlmEnv): LlmConfig | undefined | string {
  if (!env.LLM_BASE_URL) {
    const stray = (['LLM_MODEL', 'LLM_API_KEY'] as const).filter((name) => env[name] !== undefined);
    return stray.length > 0
      ? `${stray.join(' and ')}: set LLM_BASE_URL too (the server's address, e.g. http://localhost:11434/v1), or leave ${stray.length > 1 ? 'them' : 'it'} empty`
      : undefined;
  }
  if (!env.LLM_MODEL) {
    return 'LLM_MODEL: must be set when LLM_BASE_URL is set (the model\'s name on that server, e.g. "llama3.2-vision" for Ollama)';
  }
  return {
    baseUrl: env.LLM_BASE_URL,
    model: env.LLM_MODEL,
    apiKey: env.LLM_API_KEY,
    timeoutMs: Math.round(env.LLM_TIMEOUT_SECONDS * 1000),
  };
}
