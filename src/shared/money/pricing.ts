import { z } from 'zod';
import type { Plan } from '../auth';
import { modelIdSchema, type ModelId, type ModelInfo, RESOLUTIONS, type Resolution } from '../models';
import { PRICES, toCredits, toHundredths } from './price-list';
import { singleLine } from '../text';

/** Model ids come from the server's catalogue (GET /api/models), which also says which one is the default. */
export type { ModelId };
export const DEFAULT_ESTIMATE_DURATION = 8;

export { PRICES, VIDEO_COSTS } from './price-list';
/** A model's base price in hundredths (the catalogue's, per model; the standard prices by default). */
export interface ModelPrice {
  standard: number;
  economy: number;
  /** The two figures are per second of video (MODELS_CONFIG `"per": "second"`). */
  perSecond?: boolean;
  /** Standard price at a resolution, replacing `standard` there (MODELS_CONFIG `resolutionCredits`). */
  byResolution?: Partial<Record<Resolution, number>>;
}
export const DEFAULT_MODEL_PRICE: ModelPrice = { standard: PRICES.baseVideo, economy: PRICES.economyVideo };

/** A catalogue entry's base price (GET /api/models answers it in credits) in hundredths. */
export function modelPriceOf(
  model: Pick<ModelInfo, 'credits' | 'economyCredits'> & Partial<Pick<ModelInfo, 'pricePer' | 'resolutionCredits'>>,
): ModelPrice {
  const byResolution: Partial<Record<Resolution, number>> = {};
  for (const r of RESOLUTIONS) {
    const credits = model.resolutionCredits?.[r];
    if (credits !== undefined) byResolution[r] = toHundredths(credits);
  }
  return {
    standard: toHundredths(model.credits),
    economy: toHundredths(model.economyCredits),
    perSecond: model.pricePer === 'second',
    byResolution,
  };
}

/**
 * A video's base price in hundredths, before add-ons: the model's standard or economy price, at the
 * resolution's own price when the model has one (economy keeps the model's economy share), times
 * the seconds when the model is priced per second. Always whole hundredths.
 */
export function basePriceHundredths(
  model: ModelPrice,
  video: { isEconomy: boolean; duration?: number; resolution?: Resolution },
): number {
  const atResolution = video.resolution ? model.byResolution?.[video.resolution] : undefined;
  let base: number;
  if (atResolution === undefined) base = video.isEconomy ? model.economy : model.standard;
  else if (!video.isEconomy) base = atResolution;
  else base = Math.round(model.standard > 0 ? (atResolution * model.economy) / model.standard : atResolution / 2);
  return model.perSecond ? Math.round(base * (video.duration ?? 1)) : base;
}

/** The model POST /api/credits/estimate prices when the request names none (the product's estimate default). */
export const ESTIMATE_DEFAULT_MODEL = 'veo3';

/** What a video's price depends on besides its model: economy mode and the add-ons it uses. */
export interface PriceInputs {
  hasAudio: boolean;
  isEconomy: boolean;
  hasPromptEnhancement: boolean;
  hasImageAnalysis: boolean;
  /** Seconds the model renders (the request's, moved to the nearest it renders): per-second prices read it. */
  duration?: number;
  /** The resolution it renders: per-resolution prices read it. */
  resolution?: Resolution;
}

/** One video's price and its parts, in hundredths. */
export interface VideoPrice {
  total: number;
  parts: { baseVideo: number; audio: number; promptEnhancement: number; imageAnalysis: number };
}
export type PriceParts = VideoPrice['parts'];

/** The add-ons as the generator's breakdown lists them, with what the server charges (credits). */
export const ADD_ON_PRICES = [
  { key: 'audio', label: 'Audio', credits: toCredits(PRICES.audio) },
  { key: 'promptEnhancement', label: 'AI prompt enhancement', credits: toCredits(PRICES.promptEnhancement) },
  { key: 'imageAnalysis', label: 'Image analysis', credits: toCredits(PRICES.imageAnalysis) },
] as const;

/**
 * The price of one video in hundredths: the generator shows it (with the model's price from
 * GET /api/models), the server charges it (with the same catalogue price) and the estimate
 * answers it. Any object carrying the four facts will do; other fields are not read.
 */
export function priceHundredths<T extends PriceInputs>(inputs: T, model: ModelPrice = DEFAULT_MODEL_PRICE): VideoPrice {
  const parts: PriceParts = {
    baseVideo: basePriceHundredths(model, inputs),
    audio: inputs.hasAudio ? PRICES.audio : 0,
    promptEnhancement: inputs.hasPromptEnhancement ? PRICES.promptEnhancement : 0,
    imageAnalysis: inputs.hasImageAnalysis ? PRICES.imageAnalysis : 0,
  };
  return { total: parts.baseVideo + parts.audio + parts.promptEnhancement + parts.imageAnalysis, parts };
}

/**
 * POST /api/credits/estimate, kept for other clients (the generator prices on its own). The spec's
 * client also sends `userPlan` and `hasGeminiOptimization`: taken, and they change no price (the
 * server knows the user's plan); any other field is refused (decision 025).
 */
export const costEstimateRequestSchema = z.strictObject({
  userPlan: z.string().max(50).check(singleLine).optional(),
  hasGeminiOptimization: z.boolean().optional(),
  duration: z.number().int().min(1).max(60).default(DEFAULT_ESTIMATE_DURATION),
  /** Absent: the catalogue's default model, the one a generation request without a model gets. */
  model: modelIdSchema.optional(),
  /** Absent: the model's default (`defaultResolution`), as for a generation request. */
  resolution: z.enum(RESOLUTIONS).optional(),
  hasPromptEnhancement: z.boolean().default(false),
  hasImageAnalysis: z.boolean().default(false),
  hasAudio: z.boolean().default(false),
  isEconomy: z.boolean().default(false),
  /** How many videos: the estimate is that many times the price of one. */
  batchSize: z.number().int().min(1).max(10).default(1),
});
export type CostEstimateRequest = z.input<typeof costEstimateRequestSchema>;
/** The estimate's inputs once the server has named the model. */
export type CostInputs = Omit<z.output<typeof costEstimateRequestSchema>, 'resolution'> & {
  model: ModelId;
  resolution?: Resolution;
};

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

/**
 * The estimate's answer, in credits, for `plan` (the caller's own). Its shape is the one older clients
 * read; fields for things this product does not have (a Gemini optimisation add-on, model premiums,
 * plan discounts, a plan worth upgrading to) are always zero or false.
 */
export function estimateCost(inputs: CostInputs, model: ModelPrice, plan: Plan): CostEstimate {
  const { total, parts } = priceHundredths(inputs, model);
  const times = (h: number) => toCredits(h * inputs.batchSize);
  // The base of a video includes its audio (1 standard, 3 with audio or voice: docs/product-rules.md).
  const base = parts.baseVideo + parts.audio;
  const economy = basePriceHundredths(model, { ...inputs, isEconomy: true });
  const standard = basePriceHundredths(model, { ...inputs, isEconomy: false });
  const cheaper = inputs.hasAudio
    ? { description: 'A silent video costs 2 credits less.', savings: times(PRICES.audio) }
    : !inputs.isEconomy
      ? {
          description: `Economy mode makes a video for ${toCredits(economy)} credit${economy <= 100 ? '' : 's'}.`,
          savings: times(standard - economy),
        }
      : { description: 'This is already the lowest-priced option.', savings: 0 };
  return {
    totalCost: times(total),
    baseVideo: times(base),
    promptEnhancement: times(parts.promptEnhancement),
    imageAnalysis: times(parts.imageAnalysis),
    geminiOptimization: 0,
    modelPremium: 0,
    planDiscount: 0,
    breakdown: {
      baseVideo: times(base),
      aiEnhancements: { total: times(parts.promptEnhancement + parts.imageAnalysis) },
      modelSelection: { selectedModel: inputs.model, modelCost: 0 },
      planBenefit: { discountPercent: 0, savingsAmount: 0 },
    },
    recommendations: {
      cheaperAlternative: cheaper,
      planUpgrade: { upgradeWorthIt: false, planName: plan, monthlySavings: 0 },
    },
  };
}
