import { useState } from 'react';

import { audioWordIn, mentionsAudio } from '../../../../shared/generations';
import { ADD_ON_PRICES } from '../../../../shared/money/pricing';
import type { ModelId } from '../../../../shared/money/pricing';

export interface GeneratorFormState {
  description: string;
  audioEnabled: boolean;
  audioDescription: string;
  advancedSettings: string;
  isEconomy: boolean;
  /** null: the server's default model. */
  model: ModelId | null;
  /** Why audio is on when the description's words switched it on (shown beside the switch), else null. */
  audioNotice: string | null;
}

const AUDIO_CREDITS = ADD_ON_PRICES.find((a) => a.key === 'audio')?.credits ?? 0;

/** The one-line notice beside the switch when a word of the description turned audio on (decision 012). */
export function audioSwitchedOnNotice(word: string): string {
  return `Audio switched on because the description mentions "${word}" (+${AUDIO_CREDITS} credits). Switch it off for a silent video.`;
}

const EMPTY: GeneratorFormState = {
  description: '',
  audioEnabled: false,
  audioDescription: '',
  advancedSettings: '',
  isEconomy: false,
  model: null,
  audioNotice: null,
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
    setDescription: (description: string) =>
      setState((current) => {
        const word = !current.audioEnabled && !mentionsAudio(current.description) ? audioWordIn(description) : null;
        return {
          ...current,
          description,
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
    setModel: (model: ModelId) => update({ model }),
    /** After a successful generation: description, settings and (in the page) inputs are cleared. */
    clear: () => setState((current) => ({ ...EMPTY, model: current.model, audioEnabled: false, audioNotice: null })),
  };
}
