import { type DraftChoice, draftChoice } from '../../shared/drafts';
import { DEFAULT_GENERATION_DURATION, type GenerationRequest, parseAdvancedSettings } from '../../shared/generations';
import { chosenModel, type ModelInfo } from '../../shared/models';
import { requestRefusal } from '../../shared/model-fit';
import { modelPriceOf, type PriceInputs, priceHundredths } from '../../shared/money/pricing';
import {
  compareCandidates,
  type FittedControls,
  fitControls,
  shapeKeysOf,
  type VideoControls,
} from '../features/generations/controls/video-controls';
import type { GeneratorFormState } from '../features/generations/hooks/use-generator-form';
import type { DescriptionToSend } from '../features/prompts/hooks/use-prompt-enhancement';
import { keyframeFields, type KeyframeValue } from '../features/uploads/components/keyframe-inputs';
import type { MediaInputValue } from '../features/uploads/components/media-input-card';

/** What the generator knows when it prices what Generate would send. */
export interface QuoteInputs {
  /** The catalogue (undefined until it arrives). */
  models: ModelInfo[] | undefined;
  state: Pick<
    GeneratorFormState,
    'model' | 'advancedSettings' | 'controls' | 'isEconomy' | 'isDraft' | 'audioEnabled' | 'description' | 'aiResultIds'
  >;
  media: MediaInputValue;
  keyframes: KeyframeValue;
  /** The description Generate sends, with the AI results its text came from (AI Enhance's, when on). */
  toSend: DescriptionToSend;
  /** AI Enhance is on. */
  enhancing: boolean;
  /** After 'Use Enhanced', the words the user wrote before it (while the description is still the AI's text). */
  beforeEnhanced: string | null;
  /** The second model of a comparison, or null. */
  compareId: string | null;
  variations: number;
  /** A character of the user's library (its pictures or its words go in as the model keeps one). */
  characterId?: string | null;
}

/**
 * What Generate would send and what it costs, worked out from the form as the server will: the
 * model and the shape it renders, the uploads the request names, the sentence the server would
 * refuse it with, the price (with the add-ons, a comparison or the variations), and the two ways to
 * a lower price the page offers when the balance is short: without the add-ons, and Economy.
 */
export function quoteGeneration(input: QuoteInputs) {
  const { state, media, toSend } = input;
  // What the video is rendered at on this model: the picks it takes, else its defaults.
  // A shape key typed in the settings JSON (older habits) counts as that pick, so the price stays the charge.
  const typed = parseAdvancedSettings(state.advancedSettings);
  const picks = { ...state.controls, ...(typed.ok ? shapeKeysOf(typed.settings) : {}) };
  const { draft, model, fitted } = modelAndShape(input, picks, state.isEconomy);
  const modelPrice = model && modelPriceOf(model);
  // The uploads the request names, as the chosen model takes them.
  const inputFields = {
    imageFile: media.image ?? null,
    videoFile: media.video ?? null,
    audioFile: media.audio ?? null,
    ...keyframeFields(model, input.keyframes, media.image),
    ...(input.characterId ? { characterId: input.characterId } : {}),
  };
  // What the server checks of it against a model (src/shared/model-fit.ts): Generate waits on its sentence.
  const request = fitted ? { ...inputFields, ...fitted } : null;
  const unfit =
    state.isDraft && input.models && !draft
      ? NO_DRAFT
      : model && request
        ? (requestRefusal(model, request)?.message ?? null)
        : null;
  // Priced as the server will charge it, with the model's price from the catalogue; the standard
  // prices until the catalogue arrives (or if it cannot be loaded).
  const uses: PriceInputs = {
    hasAudio: state.audioEnabled,
    isEconomy: state.isEconomy,
    hasPromptEnhancement: Boolean(toSend.aiResultIds.promptEnhancement),
    hasImageAnalysis: Boolean(toSend.aiResultIds.imageAnalysis),
    ...(fitted ? { duration: fitted.duration, resolution: fitted.resolution } : {}),
  };
  const price = priceHundredths(uses, modelPrice);

  // Without the add-ons: with AI Enhance's result still on offer, the user's own description at its own
  // price (a description that is itself AI text, from Use This, keeps its share: its words are the
  // add-on's); after 'Use Enhanced', the words the user wrote before it.
  const droppable = input.enhancing && toSend.aiResultIds.promptEnhancement !== state.aiResultIds.promptEnhancement;
  const plain: DescriptionToSend | null = droppable
    ? { text: state.description, aiResultIds: state.aiResultIds }
    : input.beforeEnhanced !== null
      ? { text: input.beforeEnhanced, aiResultIds: {} }
      : null;
  const plainUses: PriceInputs = {
    ...uses,
    hasPromptEnhancement: Boolean(plain?.aiResultIds.promptEnhancement),
    hasImageAnalysis: Boolean(plain?.aiResultIds.imageAnalysis),
  };
  const plainPrice = priceHundredths(plainUses, modelPrice);

  // The same video in economy mode (its add-ons kept): offered when it fits a balance the asked one does not.
  const economy = state.isEconomy ? null : modelAndShape(input, picks, true);
  const economyFitted = economy?.fitted ?? null;
  const economyTotal =
    economy?.model && economy.fitted
      ? priceHundredths(
          { ...uses, isEconomy: true, duration: economy.fitted.duration, resolution: economy.fitted.resolution },
          modelPriceOf(economy.model),
        ).total
      : null;

  // Compare: the same request on a second model too, priced at that model's price for the shape it renders.
  // Never with a draft: it is made on one model, the cheapest (the server refuses the pair).
  const candidates = state.isDraft ? [] : compareCandidates(input.models, model, request);
  const compareModel = candidates.find((m) => m.id === input.compareId) ?? null;
  const compareFitted =
    compareModel && fitted
      ? fitControls(compareModel, { ...fitted, cameraMove: fitted.cameraMove ?? undefined }, state.isEconomy)
      : null;
  const comparePrice = (base: PriceInputs) =>
    compareModel && compareFitted
      ? priceHundredths(
          { ...base, duration: compareFitted.duration, resolution: compareFitted.resolution },
          modelPriceOf(compareModel),
        ).total
      : 0;
  const times = input.variations;
  return {
    model,
    /** Draft on: the model and resolution it is made on, and the length asked; null otherwise, or when no model takes it. */
    draft,
    fitted,
    inputFields,
    request,
    unfit,
    price,
    plain,
    economyFitted,
    economyTotal,
    candidates,
    compareModel,
    /** The second model's price alone, with the add-ons asked. */
    comparedPrice: comparePrice(uses),
    /** Everything Generate makes: both models of a comparison, else each variation. */
    totalPrice: compareModel ? price.total + comparePrice(uses) : price.total * times,
    /** The same without the add-ons. */
    plainTotal: compareModel ? plainPrice.total + comparePrice(plainUses) : plainPrice.total * times,
  };
}

export type GenerationQuote = ReturnType<typeof quoteGeneration>;

/** The sentence above Generate while Draft is on and no model takes the request. */
export const NO_DRAFT = 'No model here takes this request as a draft.';

/** A draft as the generator shows and sends it: draftChoice's model and resolution, and the length asked. */
export type GeneratorDraftChoice = DraftChoice & { duration: number };

/**
 * The model the request goes to and what it renders there: Draft's choice while Draft is on (the
 * chosen model when no model takes it, so its controls stay to change), else the chosen model.
 */
function modelAndShape(input: QuoteInputs, picks: VideoControls, isEconomy: boolean) {
  const draft = input.state.isDraft ? draftFor(input, picks, isEconomy) : null;
  const model = draft?.model ?? chosenModel(input.models, input.state.model);
  const fitted: FittedControls | null = model
    ? fitControls(model, draft ? { ...picks, resolution: draft.resolution } : picks, isEconomy)
    : null;
  return { draft, model, fitted };
}

/**
 * The draft for the request as the user asked it, before any model trimmed it: every upload and
 * keyframe, the shape, camera and length picked. The server chooses on the same fields (draftChoice),
 * so the request sends the length asked, not the one the draft's model renders.
 */
function draftFor(input: QuoteInputs, picks: VideoControls, isEconomy: boolean): GeneratorDraftChoice | null {
  if (!input.models) return null;
  const { media, keyframes, state } = input;
  const duration = picks.duration ?? DEFAULT_GENERATION_DURATION;
  const choice = draftChoice(input.models, {
    imageFile: media.image ?? null,
    videoFile: media.video ?? null,
    audioFile: media.audio ?? null,
    // As a model taking every keyframe would have them: the draft goes to a model that takes them.
    ...keyframeFields({ endFrame: true, referenceImages: keyframes.referenceImages.length }, keyframes, media.image),
    aspectRatio: picks.aspectRatio ?? null,
    cameraMove: picks.cameraMove ?? null,
    duration,
    hasAudio: state.audioEnabled,
    isEconomy,
  });
  return choice && { ...choice, duration };
}

/** What Generate sends besides what the quote worked out. */
export interface RequestChoices {
  state: Pick<
    GeneratorFormState,
    'advancedSettings' | 'audioEnabled' | 'audioDescription' | 'isEconomy' | 'isDraft' | 'model'
  >;
  /** The description and its AI results: what the quote priced, or the version without the add-ons. */
  sent: DescriptionToSend;
  variations: number;
  /** The user ticked the likeness consent the server asked for. */
  consentToLikeness: boolean;
}

/**
 * The body of POST /api/video-generation for a quote, or the Advanced Settings box's own sentence
 * when its JSON would be refused (the same check as under the box, before anything is sent).
 */
export function buildGenerationRequest(
  quote: Pick<GenerationQuote, 'fitted' | 'inputFields' | 'compareModel' | 'draft'>,
  { state, sent, variations, consentToLikeness }: RequestChoices,
): { ok: true; request: GenerationRequest } | { ok: false; message: string } {
  const settings = parseAdvancedSettings(state.advancedSettings);
  if (!settings.ok) return settings;
  // The shape and camera go as the request's own fields; the settings keep the rest (seed, negative prompt).
  const { aspectRatio, resolution, cameraMove, ...rest } = settings.settings;
  const { fitted, compareModel, draft } = quote;
  const controls = fitted
    ? {
        aspectRatio: fitted.aspectRatio,
        resolution: fitted.resolution,
        duration: fitted.duration,
        ...(fitted.cameraMove ? { cameraMove: fitted.cameraMove } : {}),
      }
    : { aspectRatio, resolution, cameraMove, duration: DEFAULT_GENERATION_DURATION };
  const request: GenerationRequest = {
    description: sent.text,
    ...(state.audioEnabled ? { audioDescription: state.audioDescription } : {}),
    settings: rest,
    aiResultIds: sent.aiResultIds,
    ...quote.inputFields,
    hasAudio: state.audioEnabled,
    isEconomy: state.isEconomy,
    ...controls,
    ...(state.model ? { model: state.model } : {}),
    // A draft names its model and resolution too (the server chooses them again, on the same fields).
    ...(state.isDraft ? { draft: true } : {}),
    ...(draft ? { model: draft.model.id, resolution: draft.resolution, duration: draft.duration } : {}),
    variations: compareModel ? 1 : variations,
    ...(compareModel ? { compareModel: compareModel.id } : {}),
    ...(consentToLikeness ? { consentToLikeness: true } : {}),
  };
  return { ok: true, request };
}
