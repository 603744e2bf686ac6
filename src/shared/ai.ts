import { z } from 'zod';
import { multiLine, singleLine } from './text';

/** Longest description the enhancer accepts. */
export const MAX_ENHANCE_PROMPT_LENGTH = 2000;
export const ENHANCE_PROMPT_REQUIRED_MESSAGE = 'Please provide a text description first';
/** Confidence when nothing says otherwise (docs/product-rules.md, AI assist). */
export const DEFAULT_ENHANCE_CONFIDENCE = 85;
/** The generator shows at most this many detected objects (docs/product-rules.md, AI assist). */
export const MAX_SHOWN_OBJECTS = 6;

/** POST /api/prompts/enhance-text; the generator sends style cinematic, duration medium, mood energetic (audio) or calm. */
export const enhanceTextRequestSchema = z.strictObject({
  userPrompt: z
    .string()
    .max(MAX_ENHANCE_PROMPT_LENGTH, `must be at most ${MAX_ENHANCE_PROMPT_LENGTH} characters`)
    .check(multiLine)
    .default(''),
  style: z.string().trim().max(40).check(singleLine).default('cinematic'),
  duration: z.string().trim().max(40).check(singleLine).default('medium'),
  mood: z.string().trim().max(40).check(singleLine).default('calm'),
});
export type EnhanceTextRequest = z.input<typeof enhanceTextRequestSchema>;

export const promptEnhancementSchema = z.object({
  enhancedPrompt: z.string(),
  improvements: z.array(z.string()),
  confidence: z.number(),
});
export type PromptEnhancement = z.infer<typeof promptEnhancementSchema>;

/** POST /api/prompts/analyze-image: imageUrl names one of the caller's own uploads. */
export const analyzeImageRequestSchema = z.strictObject({
  imageUrl: z.string().trim().min(1, 'is required').max(1000).check(singleLine),
  analysisType: z.string().trim().max(40).check(singleLine).default('comprehensive'),
  generatePrompt: z.boolean().default(true),
});
export type AnalyzeImageRequest = z.input<typeof analyzeImageRequestSchema>;

export const imageAnalysisSchema = z.object({
  sceneDescription: z.string(),
  objects: z.array(z.object({ name: z.string(), confidence: z.number() })),
  lighting: z.object({ type: z.string() }),
  style: z.object({ mood: z.string() }),
  suggestedPrompt: z.string(),
  /** Set when objects could not be detected on this server (the list is then empty, never invented). */
  detectorNote: z.string().nullable().optional(),
});
export type ImageAnalysis = z.infer<typeof imageAnalysisSchema>;

/**
 * The server's id of the text an answer produced (the enhanced prompt, or the suggested prompt):
 * a generation that uses the text names it in aiResultIds to be charged for it. Null when there is
 * no text to use (a blank suggestion); absent from older servers.
 */
const resultIdSchema = z.uuid().nullish();

export const enhanceTextAnswerSchema = z.object({
  success: z.literal(true),
  data: promptEnhancementSchema,
  resultId: resultIdSchema,
});
export const analyzeImageAnswerSchema = z.object({
  success: z.literal(true),
  data: imageAnalysisSchema,
  resultId: resultIdSchema,
});
export type EnhanceTextAnswer = z.infer<typeof enhanceTextAnswerSchema>;
export type AnalyzeImageAnswer = z.infer<typeof analyzeImageAnswerSchema>;
