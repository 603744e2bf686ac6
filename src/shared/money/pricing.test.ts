import { describe, expect, it } from 'vitest';
import { costEstimateRequestSchema, estimateCost, modelPriceOf, priceHundredths } from './pricing';

const inputs = (overrides: Record<string, unknown> = {}) => costEstimateRequestSchema.parse(overrides);
/** The estimate's inputs once the server has named the model (the catalogue's default when none is sent). */
const named = (overrides: Record<string, unknown> = {}) => ({ model: 'veo3', ...inputs(overrides) });
const STANDARD = { standard: 100, economy: 50 };

describe('pricing', () => {
  it('charges 1 credit for a standard video, 0.5 in economy mode and 3 with audio', () => {
    expect(priceHundredths(inputs()).total).toBe(100);
    expect(priceHundredths(inputs({ isEconomy: true })).total).toBe(50);
    expect(priceHundredths(inputs({ hasAudio: true })).total).toBe(300);
  });

  it('adds half a credit for each AI add-on and multiplies by the batch', () => {
    expect(priceHundredths(inputs({ hasPromptEnhancement: true, hasImageAnalysis: true })).total).toBe(200);
    expect(
      estimateCost(named({ hasAudio: true, hasPromptEnhancement: true, batchSize: 3 }), STANDARD, 'JUST_FOR_FUN')
        .totalCost,
    ).toBe(10.5);
  });

  it('prices per second and per resolution when the catalogue says so, economy keeping its share', () => {
    const model = modelPriceOf({
      credits: 0.5,
      economyCredits: 0.25,
      pricePer: 'second',
      resolutionCredits: { '1080p': 1 },
    });
    const video = { hasAudio: false, hasPromptEnhancement: false, hasImageAnalysis: false };
    expect(priceHundredths({ ...video, isEconomy: false, duration: 8, resolution: '720p' }, model).total).toBe(400);
    expect(priceHundredths({ ...video, isEconomy: false, duration: 8, resolution: '1080p' }, model).total).toBe(800);
    expect(priceHundredths({ ...video, isEconomy: true, duration: 8, resolution: '1080p' }, model).total).toBe(400);
    expect(priceHundredths({ ...video, isEconomy: true, duration: 5, resolution: '720p' }, model).total).toBe(125);
  });

  it("prices with the catalogue's price of the model, as GET /api/models answers it", () => {
    const model = modelPriceOf({ credits: 4, economyCredits: 2 });
    expect(model).toEqual({ standard: 400, economy: 200, perSecond: false, byResolution: {} });
    expect(
      priceHundredths({ hasAudio: true, isEconomy: false, hasPromptEnhancement: false, hasImageAnalysis: true }, model),
    ).toEqual({
      total: 650,
      parts: { baseVideo: 400, audio: 200, promptEnhancement: 0, imageAnalysis: 50 },
    });
    expect(
      priceHundredths({ hasAudio: false, isEconomy: true, hasPromptEnhancement: false, hasImageAnalysis: false }, model)
        .total,
    ).toBe(200);
  });

  it('answers every field of the spec estimate with the spec defaults', () => {
    const estimate = estimateCost(named({ hasAudio: true, hasImageAnalysis: true }), STANDARD, 'JUST_FOR_FUN');
    expect(estimate).toMatchObject({
      totalCost: 3.5,
      baseVideo: 3,
      promptEnhancement: 0,
      imageAnalysis: 0.5,
      geminiOptimization: 0,
      modelPremium: 0,
      planDiscount: 0,
      breakdown: {
        baseVideo: 3,
        aiEnhancements: { total: 0.5 },
        modelSelection: { selectedModel: 'veo3', modelCost: 0 },
        planBenefit: { discountPercent: 0, savingsAmount: 0 },
      },
      recommendations: {
        cheaperAlternative: { savings: 2 },
        planUpgrade: { upgradeWorthIt: false, planName: 'JUST_FOR_FUN', monthlySavings: 0 },
      },
    });
    // The model is left to the server, which fills in its catalogue's default.
    expect(inputs()).toEqual({
      duration: 8,
      batchSize: 1,
      hasAudio: false,
      isEconomy: false,
      hasPromptEnhancement: false,
      hasImageAnalysis: false,
    });
  });

  it("accepts an older client's fields that change no price", () => {
    const old = { userPlan: 'JUST_FOR_FUN', hasGeminiOptimization: true, batchSize: 1, model: 'veo3' };
    expect(costEstimateRequestSchema.safeParse(old).success).toBe(true);
    expect(priceHundredths(inputs(old)).total).toBe(100);
  });
});
