import type { Config } from '../config';
import type { JsonAsk } from './ai-request';
import { generateJson } from './gemini-text';
import { generateChatJson } from './openai-text';

/** A service that answers AI Enhance and image analysis with JSON. */
export interface TextModel {
  /** Image types it takes inline; an image of another type is analysed on this server. */
  imageTypes: ReadonlySet<string>;
  /** `name` names the answer's schema (letters, digits, _ and -). */
  askJson<T>(ask: JsonAsk<T> & { name: string }): Promise<T>;
}

/** What Gemini accepts inline: png, jpeg, webp, heic. */
const GEMINI_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
]);
/** What OpenAI's vision input and the self-hosted servers' image decoders all take. */
const CHAT_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

/**
 * Who answers AI Enhance and image analysis: the OpenAI-compatible server when LLM_BASE_URL is set
 * (an operator who set it chose it, even with a Gemini key, which then still serves Veo), else
 * Gemini when GEMINI_API_KEY is set, else nobody: the local enhancer and analysis run instead.
 */
export function textModelOf(config: Pick<Config, 'gemini' | 'llm'>): TextModel | undefined {
  const { llm, gemini } = config;
  if (llm) {
    return {
      imageTypes: CHAT_IMAGE_TYPES,
      askJson: ({ name, ...ask }) =>
        generateChatJson({
          ...ask,
          baseUrl: llm.baseUrl,
          model: llm.model,
          apiKey: llm.apiKey,
          timeoutMs: llm.timeoutMs,
          schemaName: name,
        }),
    };
  }
  if (gemini) {
    return {
      imageTypes: GEMINI_IMAGE_TYPES,
      askJson: (ask) =>
        generateJson({ ...ask, apiKey: gemini.apiKey, baseUrl: gemini.baseUrl, model: gemini.textModel }),
    };
  }
  return undefined;
}
