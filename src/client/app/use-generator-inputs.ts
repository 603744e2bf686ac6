import { useEffect, useState } from 'react';

import type { AiResultIds } from '../../shared/generations';
import {
  rememberControls,
  rememberDraft,
  rememberedControls,
  rememberedDraft,
  splitControls,
} from '../features/generations/controls/video-controls';
import { useGeneratorForm } from '../features/generations/hooks/use-generator-form';
import { clearGeneratorDraft, readGeneratorDraft } from '../features/generations/remix/generator-draft';
import { useImageAnalysis } from '../features/prompts/hooks/use-image-analysis';
import { usePromptEnhancement } from '../features/prompts/hooks/use-prompt-enhancement';
import type { KeyframeValue } from '../features/uploads/components/keyframe-inputs';
import type { MediaInputValue } from '../features/uploads/components/media-input-card';

/**
 * Everything the user has put in the generator: the form, the uploads and keyframes, AI Enhance and
 * the image analysis, the variations and the compared model. It opens on a Remix or Continue draft
 * when there is one, and `clear` empties it all once a video has started.
 */
export function useGeneratorInputs(userId: string | undefined) {
  // Remix and Continue open the generator with a video's fields filled in.
  const [draft] = useState(readGeneratorDraft);
  useEffect(() => clearGeneratorDraft(), []);
  const [media, setMedia] = useState<MediaInputValue>(draft?.inputs ?? {});
  // Keyframes and reference images, offered when the chosen model takes them.
  const [keyframes, setKeyframes] = useState<KeyframeValue>(draft?.keyframes ?? { referenceImages: [] });
  // A Remix brings its video's shape and camera; otherwise this user's last picks (this browser).
  // The Draft switch stays as this user left it either way.
  const [initial] = useState(() => {
    const split = splitControls(draft?.advancedSettings ?? '');
    const controls = draft ? split.controls : rememberedControls(userId);
    return { ...(draft ?? {}), advancedSettings: split.advancedSettings, controls, isDraft: rememberedDraft(userId) };
  });
  const form = useGeneratorForm(initial);
  useEffect(() => rememberControls(userId, form.state.controls), [userId, form.state.controls]);
  useEffect(() => rememberDraft(userId, form.state.isDraft), [userId, form.state.isDraft]);
  const enhancement = usePromptEnhancement(form.state.description, form.state.audioEnabled, form.state.aiResultIds);
  const imageAnalysis = useImageAnalysis();
  const changeMedia = (next: MediaInputValue) => {
    if (next.image !== media.image) {
      if (next.image) imageAnalysis.start(next.image);
      else imageAnalysis.clear();
    }
    setMedia(next);
  };
  // 'Use Enhanced' puts the AI's text in the description: the user's own words before it are kept
  // while the description is still that text, so a price over the balance has a way out there too.
  const [ownWords, setOwnWords] = useState<{ aiText: string; own: string } | null>(null);
  const applyEnhanced = (text: string, aiResultIds: AiResultIds) => {
    const own = form.state.description;
    // Only the user's own words: a description that is itself an AI result (Use This) has no add-on-free version.
    setOwnWords(Object.keys(form.state.aiResultIds).length === 0 && own.trim() ? { aiText: text, own } : null);
    form.setDescription(text, aiResultIds);
  };
  // Variations: Generate makes this many videos with different seeds, priced as that many.
  const [variations, setVariations] = useState(1);
  // Compare: the same request on a second model too.
  const [compareId, setCompareId] = useState<string | null>(null);
  // A character of the user's library, kept from one video to the next (it is the point of one).
  const [characterId, setCharacterId] = useState<string | null>(null);

  return {
    draft,
    form,
    media,
    changeMedia,
    keyframes,
    setKeyframes,
    enhancement,
    imageAnalysis,
    applyEnhanced,
    /** After 'Use Enhanced', the words the user wrote before it, while the description is still the AI's text. */
    beforeEnhanced: ownWords && ownWords.aiText === form.state.description ? ownWords.own : null,
    variations,
    compareId,
    characterId,
    chooseCharacter: setCharacterId,
    chooseVariations: (count: number) => {
      setVariations(count);
      // Variations and Compare are either-or (the server refuses both at once).
      if (count > 1) setCompareId(null);
    },
    chooseCompare: (id: string | null) => {
      setCompareId(id);
      if (id) setVariations(1);
    },
    /** Draft and Compare are either-or too: a draft is made on one model, the cheapest. */
    chooseDraft: (isDraft: boolean) => {
      form.setDraft(isDraft);
      if (isDraft) setCompareId(null);
    },
    /** Once a video has started: the form, the uploads and every choice go back to their start. */
    clear: () => {
      form.clear();
      setOwnWords(null);
      setVariations(1);
      setCompareId(null);
      enhancement.toggle(false);
      imageAnalysis.clear();
      setMedia({});
      setKeyframes({ referenceImages: [] });
    },
  };
}

export type GeneratorInputs = ReturnType<typeof useGeneratorInputs>;
