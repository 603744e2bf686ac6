import { describe, expect, it } from 'vitest';

import { testModel } from '../../../tests/support/model-info';
import { buildGenerationRequest, type QuoteInputs, quoteGeneration } from './generator-quote';

const standard = testModel({ id: 'local', isDefault: true, resolutions: ['480p', '720p'] });
const premium = testModel({ id: 'fal-veo3', name: 'Veo 3', credits: 4, economyCredits: 2, isPreview: false });

const asked = (overrides: Partial<QuoteInputs> = {}): QuoteInputs => ({
  models: [standard, premium],
  state: {
    model: null,
    advancedSettings: '',
    controls: {},
    isEconomy: false,
    audioEnabled: false,
    description: 'A fox in the snow',
    aiResultIds: {},
  },
  media: {},
  keyframes: { referenceImages: [] },
  toSend: { text: 'A fox in the snow', aiResultIds: {} },
  enhancing: false,
  beforeEnhanced: null,
  compareId: null,
  variations: 1,
  ...overrides,
});

// The generator's price of what Generate would send (its page shows it, the server charges the same).
describe('quoteGeneration', () => {
  it('prices the default model with its add-ons, and each variation', () => {
    const quote = quoteGeneration(
      asked({
        state: { ...asked().state, audioEnabled: true },
        toSend: { text: 'enhanced', aiResultIds: { promptEnhancement: 'e1' } },
        variations: 3,
      }),
    );
    expect(quote.model?.id).toBe('local');
    // 1 standard + 2 audio + 0.5 enhancement, three times.
    expect(quote.price.total).toBe(350);
    expect(quote.totalPrice).toBe(1050);
    expect(quote.unfit).toBeNull();
  });

  it('offers the description without AI Enhance, and Economy with the add-ons kept, at their prices', () => {
    const quote = quoteGeneration(
      asked({ enhancing: true, toSend: { text: 'enhanced', aiResultIds: { promptEnhancement: 'e1' } } }),
    );
    expect(quote.plain).toEqual({ text: 'A fox in the snow', aiResultIds: {} });
    expect(quote.plainTotal).toBe(100);
    expect(quote.economyFitted?.resolution).toBe('480p');
    expect(quote.economyTotal).toBe(100);
    // Already in economy: nothing cheaper to switch to.
    expect(quoteGeneration(asked({ state: { ...asked().state, isEconomy: true } })).economyTotal).toBeNull();
  });

  it('after Use Enhanced, offers the words written before it at their own price', () => {
    const quote = quoteGeneration(
      asked({
        state: { ...asked().state, description: 'enhanced', aiResultIds: { promptEnhancement: 'e1' } },
        toSend: { text: 'enhanced', aiResultIds: { promptEnhancement: 'e1' } },
        beforeEnhanced: 'A fox',
      }),
    );
    expect(quote.price.total).toBe(150);
    expect(quote.plain).toEqual({ text: 'A fox', aiResultIds: {} });
    expect(quote.plainTotal).toBe(100);
  });

  it('prices a comparison as both models, once each, whatever the variations say', () => {
    const quote = quoteGeneration(asked({ compareId: 'fal-veo3', variations: 4 }));
    expect(quote.candidates.map((m) => m.id)).toEqual(['fal-veo3']);
    expect(quote.compareModel?.id).toBe('fal-veo3');
    expect(quote.comparedPrice).toBe(400);
    expect(quote.totalPrice).toBe(500);
  });

  it('says why the server would refuse the request: a video input the model does not take', () => {
    const imageOnly = testModel({ id: 'local', isDefault: true, inputs: ['text', 'image'] });
    const quote = quoteGeneration(asked({ models: [imageOnly], media: { video: '/objects/uploads/u/v' } }));
    expect(quote.unfit).toMatch(/video/i);
  });
});

// What Generate sends for a quote (POST /api/video-generation's body).
describe('buildGenerationRequest', () => {
  const choices = (overrides: Partial<Parameters<typeof buildGenerationRequest>[1]> = {}) => ({
    state: { advancedSettings: '', audioEnabled: false, audioDescription: 'Drums', isEconomy: false, model: null },
    sent: { text: 'A fox in the snow', aiResultIds: {} },
    variations: 1,
    consentToLikeness: false,
    ...overrides,
  });

  it("sends the model's fitted shape as the request's own fields and the settings' other keys as settings", () => {
    // A shape typed in the settings counts as that pick: the quote fitted it, and the request names it.
    const advancedSettings = '{"aspectRatio": "9:16", "seed": 4}';
    const quote = quoteGeneration(asked({ state: { ...asked().state, advancedSettings } }));
    const built = buildGenerationRequest(quote, choices({ state: { ...choices().state, advancedSettings } }));
    expect(built).toEqual({
      ok: true,
      request: {
        description: 'A fox in the snow',
        settings: { seed: 4 },
        aiResultIds: {},
        imageFile: null,
        videoFile: null,
        audioFile: null,
        endImageFile: null,
        referenceImageFiles: [],
        hasAudio: false,
        isEconomy: false,
        aspectRatio: '9:16',
        resolution: quote.fitted?.resolution,
        duration: 10,
        variations: 1,
      },
    });
  });

  it('names a comparison once, with the audio description only while audio is on, and the consent once given', () => {
    const quote = quoteGeneration(asked({ compareId: 'fal-veo3' }));
    const built = buildGenerationRequest(
      quote,
      choices({ state: { ...choices().state, audioEnabled: true }, variations: 3, consentToLikeness: true }),
    );
    expect(built.ok && built.request).toMatchObject({
      audioDescription: 'Drums',
      hasAudio: true,
      variations: 1,
      compareModel: 'fal-veo3',
      consentToLikeness: true,
    });
    expect(buildGenerationRequest(quote, choices())).not.toHaveProperty('request.audioDescription');
  });

  it('refuses Advanced Settings that are not JSON with the sentence shown under the box', () => {
    const built = buildGenerationRequest(
      quoteGeneration(asked()),
      choices({ state: { ...choices().state, advancedSettings: '{seed: 4' } }),
    );
    expect(built).toEqual({ ok: false, message: expect.stringMatching(/^Advanced settings/) as unknown });
  });
});
