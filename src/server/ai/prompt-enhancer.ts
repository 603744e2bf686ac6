import { type PromptEnhancement, promptEnhancementSchema } from '../../shared/ai';
import type { Config } from '../config';
import { generateJson } from './gemini-text';
import { type EnhanceInput, enhanceLocally } from './local-enhancer';

const ENHANCEMENT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    enhancedPrompt: { type: 'string' },
    improvements: { type: 'array', items: { type: 'string' } },
    confidence: { type: 'number' },
  },
  required: ['enhancedPrompt', 'improvements', 'confidence'],
};

/** Gemini when a key is set, the local enhancer otherwise. */
export async function enhancePrompt(config: Pick<Config, 'gemini'>, input: EnhanceInput, retryDelayMs?: number): Promise<PromptEnhancement> {
  if (!config.gemini) return enhanceLocally(input);
  return generateJson({
    apiKey: config.gemini.apiKey,
    baseUrl: config.gemini.baseUrl,
    model: config.gemini.textModel,
    systemInstruction:
      'You improve prompts for a short AI video generator. Keep every word the user wrote and their intent; add shot type, camera movement, lighting, lens and style, and pacing where missing. List each addition as an improvement. Confidence is 0-100.',
    parts: [
      {
        text: `Style: ${input.style}. Duration: ${input.duration}. Mood: ${input.mood}.\nPrompt: ${input.userPrompt}`,
      },
    ],
    responseJsonSchema: ENHANCEMENT_JSON_SCHEMA,
    schema: promptEnhancementSchema,
    retryDelayMs,
  });
}
