import { z } from 'zod';
import type { PromptEnhancement } from '../../shared/ai';
import type { Config } from '../config';
import type { AiCallOptions } from './ai-request';
import { type EnhanceInput, enhanceLocally } from './local-enhancer';
import { textModelOf } from './text-model';

const MAX_IMPROVEMENTS = 10;

const ENHANCEMENT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    enhancedPrompt: { type: 'string', description: "The improved prompt, starting with the user's own words." },
    improvements: {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_IMPROVEMENTS,
      description: 'One short sentence per addition.',
    },
    confidence: { type: 'integer', minimum: 0, maximum: 100 },
  },
  required: ['enhancedPrompt', 'improvements', 'confidence'],
};

/** What the model must send; tidied into the shared shape (trimmed, at most 10 improvements, 0-100). */
const enhancementAnswerSchema = z
  .object({
    enhancedPrompt: z.string().trim().min(1),
    improvements: z.array(z.string()),
    confidence: z.number(),
  })
  .transform((answer): PromptEnhancement => ({
    enhancedPrompt: answer.enhancedPrompt,
    improvements: answer.improvements
      .map((i) => i.trim())
      .filter(Boolean)
      .slice(0, MAX_IMPROVEMENTS),
    // Some answers give a fraction despite the schema.
    confidence: Math.round(
      Math.min(
        100,
        Math.max(0, answer.confidence <= 1 && answer.confidence > 0 ? answer.confidence * 100 : answer.confidence),
      ),
    ),
  }));

const SYSTEM_INSTRUCTION = [
  'You improve descriptions for an AI video generator that makes short clips.',
  "Start the enhanced prompt with the user's description exactly as written, then add only what it lacks:",
  'shot type and framing, camera movement, lighting, lens and visual style matching the requested style,',
  'and pacing that fits the requested duration. Add a sound cue only when the user named no sound and the mood is energetic or the user asks for sound.',
  'Keep every choice the user made: shot or framing, camera move (a zoom in is a camera move), pace, mood and sound (music, an instrument, a voice, silence).',
  'Add only the kinds that are missing, never a second item of a kind the user already gave, and never anything that contradicts them:',
  "if the user's words are slow, soft or calm, every addition is calm too (no lively pacing, no sound effects), even when the requested mood says otherwise.",
  "Never change the subject or contradict the user's details.",
  'List each addition as one short improvement sentence.',
  'Confidence (0-100) is how closely you expect the video to follow the enhanced prompt: lower the more you had to add yourself.',
].join(' ');

/** The configured model (an OpenAI-compatible server, or Gemini), the local enhancer without one. */
export async function enhancePrompt(
  config: Pick<Config, 'gemini' | 'llm'>,
  input: EnhanceInput,
  options: AiCallOptions = {},
): Promise<PromptEnhancement> {
  const model = textModelOf(config);
  if (!model) return enhanceLocally(input);
  return model.askJson({
    name: 'prompt_enhancement',
    systemInstruction: SYSTEM_INSTRUCTION,
    parts: [
      {
        text: `Style: ${input.style}\nDuration: ${input.duration}\nMood: ${input.mood}\nDescription: ${input.userPrompt}`,
      },
    ],
    responseJsonSchema: ENHANCEMENT_JSON_SCHEMA,
    schema: enhancementAnswerSchema,
    retryDelayMs: options.retryDelayMs,
    signal: options.signal,
  });
}
