import { useState } from 'react';

import { mentionsAudio } from '../../../../shared/generations';
import type { ModelId } from '../../../../shared/money/pricing';

export interface GeneratorFormState {
  description: string;
  audioEnabled: boolean;
  audioDescription: string;
  advancedSettings: string;
  isEconomy: boolean;
  /** null: the server's default model. */
  model: ModelId | null;
}

const EMPTY: GeneratorFormState = {
  description: '',
  audioEnabled: false,
  audioDescription: '',
  advancedSettings: '',
  isEconomy: false,
  model: null,
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
      setState((current) => ({
        ...current,
        description,
        audioEnabled: current.audioEnabled || (mentionsAudio(description) && !mentionsAudio(current.description)),
      })),
    setAudioEnabled: (audioEnabled: boolean) => update({ audioEnabled }),
    setAudioDescription: (audioDescription: string) => update({ audioDescription }),
    setAdvancedSettings: (advancedSettings: string) => update({ advancedSettings }),
    setEconomy: (isEconomy: boolean) => update({ isEconomy }),
    setModel: (model: ModelId) => update({ model }),
    /** After a successful generation: description, settings and (in the page) inputs are cleared. */
    clear: () => setState((current) => ({ ...EMPTY, model: current.model, audioEnabled: false })),
  };
}
