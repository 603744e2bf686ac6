import { useState } from 'react';

import { type AiResultIds, audioWordIn, mentionsAudio } from '../../../../shared/generations';
import { ADD_ON_PRICES } from '../../../../shared/money/pricing';
import type { ModelId } from '../../../../shared/money/pricing';
import type { VideoControls } from '../controls/video-controls';

export interface GeneratorFormState {
  description: string;
  /**
   * The AI results whose text the description is (the analysis's suggestion, an enhanced prompt):
   * set when the generator puts such a text in, dropped at the user's first edit. Generate names
   * them, and the video is charged for them.
   */
  aiResultIds: AiResultIds;
  audioEnabled: boolean;
  audioDescription: string;
  advancedSettings: string;
  isEconomy: boolean;
  /** Draft: the cheapest model and resolution that take the request, whatever model is chosen (issue 48). */
  isDraft: boolean;
  /** null: the server's default model. */
  model: ModelId | null;
  /** Why audio is on when the description's words switched it on (shown beside the switch), else null. */
  audioNotice: string | null;
  /** The shape, length and camera the user picked (each absent: the chosen model's default). */
  controls: VideoControls;
}

const AUDIO_CREDITS = ADD_ON_PRICES.find((a) => a.key === 'audio')?.credits ?? 0;

/** The one-line notice beside the switch when a word of the description turned audio on (decision 012). */
export function audioSwitchedOnNotice(word: string): string {
  return `Audio switched on because the description mentions "${word}" (+${AUDIO_CREDITS} credits). Switch it off for a silent video.`;
}

const EMPTY: GeneratorFormState = {
  description: '',
  aiResultIds: {},
  audioEnabled: false,
  audioDescription: '',
  advancedSettings: '',
  isEconomy: false,
  isDraft: false,
  model: null,
  audioNotice: null,
  controls: {},
};

/**
 * The generator's fields. Audio switches on by itself when the description starts to mention
 * music, soundtrack, voice, singing, audio or sound; the user can still switch it off.
 */
export function useGeneratorForm(initial?: Partial<GeneratorFormState>) {
  const [state, setState] = useState<GeneratorFormState>(() => ({ ...EMPTY, ...initial }));
  const update = (patch: Partial<GeneratorFormState>) => setState((current) => ({ ...current, ...patch }));
  return {
    state,
    /** Typing passes the text alone; an AI helper's text comes with the ids of the results it is. */
    setDescription: (description: string, aiResultIds: AiResultIds = {}) =>
      setState((current) => {
        const word = !current.audioEnabled && !mentionsAudio(current.description) ? audioWordIn(description) : null;
        return {
          ...current,
          description,
          aiResultIds,
          audioEnabled: current.audioEnabled || word !== null,
          // The notice stays while audio is on because of the description's words.
          audioNotice: word
            ? audioSwitchedOnNotice(word)
            : current.audioNotice && mentionsAudio(description)
              ? current.audioNotice
              : null,
        };
      }),
    setAudioEnabled: (audioEnabled: boolean) => update({ audioEnabled, audioNotice: null }),
    setAudioDescription: (audioDescription: string) => update({ audioDescription }),
    setAdvancedSettings: (advancedSettings: string) => update({ advancedSettings }),
    setEconomy: (isEconomy: boolean) => update({ isEconomy }),
    setDraft: (isDraft: boolean) => update({ isDraft }),
    setModel: (model: ModelId) => update({ model }),
    setControls: (patch: VideoControls) =>
      setState((current) => ({ ...current, controls: { ...current.controls, ...patch } })),
    /** After a successful generation: description, settings and (in the page) inputs are cleared. */
    clear: () =>
      setState((current) => ({
        ...EMPTY,
        model: current.model,
        controls: current.controls,
        isDraft: current.isDraft,
        audioEnabled: false,
        audioNotice: null,
      })),
  };
}
