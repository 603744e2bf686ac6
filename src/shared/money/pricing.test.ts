import { describe, expect, it } from 'vitest';
import { costEstimateRequestSchema, estimateCost, priceHundredths } from './pricing';

const inputs = (overrides: Record<string, unknown> = {}) => costEstimateRequestSchema.parse(overrides);

describe('pricing', () => {
  it('charges 1 credit for a standard video, 0.5 in economy mode and 3 with audio', () => {
    expect(priceHundredths(inputs()).total).toBe(100);
    expect(priceHundredths(inputs({ isEconomy: true })).total).toBe(50);
    expect(priceHundredths(inputs({ hasAudio: true })).total).toBe(300);
  });

  it('adds half a credit for each AI add-on and multiplies by the batch', () => {
    expect(priceHundredths(inputs({ hasPromptEnhancement: true, hasImageAnalysis: true })).total).toBe(200);
    expect(priceHundredths(inputs({ hasAudio: true, hasPromptEnhancement: true, batchSize: 3 })).total).toBe(1050);
  });

  it('answers every field of the spec estimate with the spec defaults', () => {
    const estimate = estimateCost(inputs({ hasAudio: true, hasImageAnalysis: true }));
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
    expect(inputs()).toMatchObject({ duration: 8, model: 'veo3', batchSize: 1 });
  });
});
