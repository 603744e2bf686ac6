import { type RequestControls, requestRefusal } from './model-fit';
import { type ModelInfo, nearestOf, type Resolution } from './models';
import { modelPriceOf, priceHundredths } from './money/pricing';

// Drafts and masters (issue 48): a draft is the request on the cheapest model and resolution this
// installation has for it, so a person tries ideas for little and finishes (upscales, adds sound to)
// the take they like. The generator shows this choice before the click; the server makes the same one.

/** What a draft is chosen for: the request's inputs and controls, its length and its add-ons. */
export interface DraftRequest extends RequestControls {
  duration: number;
  hasAudio: boolean;
  isEconomy: boolean;
}

export interface DraftChoice {
  model: ModelInfo;
  resolution: Resolution;
  /** Its price as the server charges it (the add-ons the request asks for, no AI assist). */
  priceHundredths: number;
}

/**
 * The draft for a request: of the available models that take it (its inputs, shape, camera and
 * keyframes), the model and resolution with the lowest price, a lower resolution on a tie. A model
 * that is only a preview (the local engine) is chosen only when no AI model can take the request:
 * a draft is the look of the master, not a stand-in for it. Null when no model takes it.
 */
export function draftChoice(models: readonly ModelInfo[], request: DraftRequest): DraftChoice | null {
  const fitting = models.filter(
    (model) => model.available && !requestRefusal(model, { ...request, resolution: undefined }),
  );
  const pool = fitting.some((model) => !model.isPreview) ? fitting.filter((model) => !model.isPreview) : fitting;
  let best: DraftChoice | null = null;
  for (const model of pool) {
    for (const resolution of model.resolutions) {
      const price = priceHundredths(
        {
          hasAudio: request.hasAudio,
          isEconomy: request.isEconomy,
          hasPromptEnhancement: false,
          hasImageAnalysis: false,
          duration: nearestOf(model.durations, request.duration),
          resolution,
        },
        modelPriceOf(model),
      ).total;
      const cheaper =
        !best ||
        price < best.priceHundredths ||
        (price === best.priceHundredths && lines(resolution) < lines(best.resolution));
      if (cheaper) best = { model, resolution, priceHundredths: price };
    }
  }
  return best;
}

const lines = (resolution: Resolution) => Number.parseInt(resolution, 10);
