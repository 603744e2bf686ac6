import { describe, expect, it } from 'vitest';

import { testModel } from '../../../tests/support/model-info';
import { draftChoice } from '../../shared/drafts';
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
    isDraft: false,
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

// Draft: the cheapest model and resolution that take the request, whatever model is chosen (issue 48).
describe('quoteGeneration with Draft on', () => {
  const dear = testModel({
    id: 'fal-veo3',
    name: 'Veo 3',
    credits: 4,
    economyCredits: 2,
    resolutions: ['720p', '1080p'],
    isPreview: false,
    isDefault: true,
  });
  const cheap = testModel({
    id: 'fal-wan',
    name: 'Wan 2.2',
    credits: 2,
    economyCredits: 1,
    resolutions: ['480p', '720p'],
    resolutionCredits: { '480p': 0.5 },
    inputs: ['text'],
    isPreview: false,
  });
  const drafting = (overrides: Partial<QuoteInputs> = {}) =>
    asked({ models: [dear, cheap], state: { ...asked().state, model: 'fal-veo3', isDraft: true }, ...overrides });

  it("prices, fits and sends draftChoice's model and resolution, not the chosen model's", () => {
    const quote = quoteGeneration(drafting());
    expect(draftChoice([dear, cheap], { duration: 10, hasAudio: false, isEconomy: false })).toMatchObject({
      model: { id: 'fal-wan' },
      resolution: '480p',
      priceHundredths: 50,
    });
    expect(quote.model?.id).toBe('fal-wan');
    expect(quote.fitted?.resolution).toBe('480p');
    expect(quote.price.total).toBe(50);
    expect(quote.totalPrice).toBe(50);
    expect(quote.unfit).toBeNull();
    // Never compared: a draft is made on one model.
    expect(quoteGeneration(drafting({ compareId: 'fal-wan' })).candidates).toEqual([]);
    const built = buildGenerationRequest(quote, {
      state: { ...drafting().state, audioDescription: '' },
      sent: { text: 'A fox in the snow', aiResultIds: {} },
      variations: 1,
      consentToLikeness: false,
    });
    expect(built.ok && built.request).toMatchObject({ draft: true, model: 'fal-wan', resolution: '480p' });
  });

  it('takes the dear model when only it takes the request, and says so when none does', () => {
    const picture = { image: '/objects/uploads/u/p.png' };
    expect(quoteGeneration(drafting({ media: picture })).model?.id).toBe('fal-veo3');
    expect(quoteGeneration(drafting({ media: picture })).price.total).toBe(400);
    const none = quoteGeneration(drafting({ models: [cheap], media: picture }));
    expect(none.draft).toBeNull();
    expect(none.unfit).toBe('No model here takes this request as a draft.');
  });
});

// What Generate sends for a quote (POST /api/video-generation's body).
describe('buildGenerationRequest', () => {
  const choices = (overrides: Partial<Parameters<typeof buildGenerationRequest>[1]> = {}) => ({
    state: {
      advancedSettings: '',
      audioEnabled: false,
      audioDescription: 'Drums',
      isEconomy: false,
      isDraft: false,
      model: null,
    },
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
