import { z } from 'zod';
import { DEFAULT_PLAN, type Plan, planSchema } from '../auth';
import { modelIdSchema, type ModelId } from '../models';
import { PRICES, toCredits } from './price-list';

/** Model ids come from the server's catalogue (GET /api/models); the spec's client sends 'veo3'. */
export type { ModelId };
export const DEFAULT_MODEL: ModelId = 'veo3';
export const DEFAULT_ESTIMATE_DURATION = 8;

export { PRICES, VIDEO_COSTS } from './price-list';
/** A model's base price in hundredths (the catalogue's, per model; the spec's prices by default). */
export interface ModelPrice {
  standard: number;
  economy: number;
}
export const DEFAULT_MODEL_PRICE: ModelPrice = { standard: PRICES.baseVideo, economy: PRICES.economyVideo };
const MODEL_PREMIUM = 0;
const PLAN_DISCOUNT_PERCENT: Record<Plan, number> = { JUST_FOR_FUN: 0 };

/** POST /api/credits/estimate (spec section 7), plus the generator's economy switch. */
export const costEstimateRequestSchema = z.object({
  userPlan: planSchema.default(DEFAULT_PLAN),
  duration: z.number().int().min(1).max(60).default(DEFAULT_ESTIMATE_DURATION),
  model: modelIdSchema.default(DEFAULT_MODEL),
  hasPromptEnhancement: z.boolean().default(false),
  hasImageAnalysis: z.boolean().default(false),
  hasGeminiOptimization: z.boolean().default(false),
  hasAudio: z.boolean().default(false),
  isEconomy: z.boolean().default(false),
  batchSize: z.number().int().min(1).max(10).default(1),
});
export type CostEstimateRequest = z.input<typeof costEstimateRequestSchema>;
export type CostInputs = z.output<typeof costEstimateRequestSchema>;

export const costEstimateSchema = z.object({
  totalCost: z.number(),
  baseVideo: z.number(),
  promptEnhancement: z.number(),
  imageAnalysis: z.number(),
  geminiOptimization: z.number(),
  modelPremium: z.number(),
  planDiscount: z.number(),
  breakdown: z.object({
    baseVideo: z.number(),
    aiEnhancements: z.object({ total: z.number() }),
    modelSelection: z.object({ selectedModel: z.string(), modelCost: z.number() }),
    planBenefit: z.object({ discountPercent: z.number(), savingsAmount: z.number() }),
  }),
  recommendations: z.object({
    cheaperAlternative: z.object({ description: z.string(), savings: z.number() }),
    planUpgrade: z.object({ upgradeWorthIt: z.boolean(), planName: z.string(), monthlySavings: z.number() }),
  }),
});
export type CostEstimate = z.infer<typeof costEstimateSchema>;

export interface PriceParts {
  baseVideo: number;
  audio: number;
  promptEnhancement: number;
  imageAnalysis: number;
  geminiOptimization: number;
  modelPremium: number;
}

/** The add-ons as the generator's breakdown lists them, with what the server charges (credits). */
export const ADD_ON_PRICES = [
  { key: 'audio', label: 'Audio', credits: toCredits(PRICES.audio) },
  { key: 'promptEnhancement', label: 'AI prompt enhancement', credits: toCredits(PRICES.promptEnhancement) },
  { key: 'imageAnalysis', label: 'Image analysis', credits: toCredits(PRICES.imageAnalysis) },
] as const;

/**
 * The price of one request in hundredths; the charge, the estimate and the display all use this.
 * `model` is the catalogue's base price of the requested model (GET /api/models, MODELS_CONFIG).
 */
export function priceHundredths(
  inputs: CostInputs,
  model: ModelPrice = DEFAULT_MODEL_PRICE,
): { perVideo: number; total: number; discount: number; parts: PriceParts } {
  const parts: PriceParts = {
    baseVideo: inputs.isEconomy ? model.economy : model.standard,
    audio: inputs.hasAudio ? PRICES.audio : 0,
    promptEnhancement: inputs.hasPromptEnhancement ? PRICES.promptEnhancement : 0,
    imageAnalysis: inputs.hasImageAnalysis ? PRICES.imageAnalysis : 0,
    geminiOptimization: inputs.hasGeminiOptimization ? PRICES.geminiOptimization : 0,
    modelPremium: MODEL_PREMIUM,
  };
  const gross =
    parts.baseVideo +
    parts.audio +
    parts.promptEnhancement +
    parts.imageAnalysis +
    parts.geminiOptimization +
    parts.modelPremium;
  const discount = Math.round((gross * PLAN_DISCOUNT_PERCENT[inputs.userPlan]) / 100);
  const perVideo = gross - discount;
  return { perVideo, total: perVideo * inputs.batchSize, discount: discount * inputs.batchSize, parts };
}

/** The full estimate the spec's client reads, in credits. */
export function estimateCost(inputs: CostInputs, model: ModelPrice = DEFAULT_MODEL_PRICE): CostEstimate {
  const price = priceHundredths(inputs, model);
  const { parts } = price;
  const times = (h: number) => toCredits(h * inputs.batchSize);
  // The base of a video includes its audio (1 standard, 3 with audio or voice: spec section 9).
  const base = parts.baseVideo + parts.audio;
  const cheaper = inputs.hasAudio
    ? { description: 'A silent video costs 2 credits less.', savings: times(PRICES.audio) }
    : !inputs.isEconomy
      ? {
          description: `Economy mode makes a video for ${toCredits(model.economy)} credit${model.economy <= 100 ? '' : 's'}.`,
          savings: times(model.standard - model.economy),
        }
      : { description: 'This is already the lowest-priced option.', savings: 0 };
  return {
    totalCost: toCredits(price.total),
    baseVideo: times(base),
    promptEnhancement: times(parts.promptEnhancement),
    imageAnalysis: times(parts.imageAnalysis),
    geminiOptimization: times(parts.geminiOptimization),
    modelPremium: times(parts.modelPremium),
    planDiscount: toCredits(price.discount),
    breakdown: {
      baseVideo: times(base),
      aiEnhancements: { total: times(parts.promptEnhancement + parts.imageAnalysis + parts.geminiOptimization) },
      modelSelection: { selectedModel: inputs.model, modelCost: times(parts.modelPremium) },
      planBenefit: {
        discountPercent: PLAN_DISCOUNT_PERCENT[inputs.userPlan],
        savingsAmount: toCredits(price.discount),
      },
    },
    recommendations: {
      cheaperAlternative: cheaper,
      planUpgrade: { upgradeWorthIt: false, planName: inputs.userPlan, monthlySavings: 0 },
    },
  };
}
