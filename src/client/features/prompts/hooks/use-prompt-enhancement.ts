import { useState } from 'react';

import { ENHANCE_PROMPT_REQUIRED_MESSAGE, type PromptEnhancement } from '../../../../shared/ai';
import type { AiResultIds } from '../../../../shared/generations';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useEnhancePrompt } from '../api/enhance-prompt';

/** The spec's request defaults: cinematic, medium, and energetic with audio, calm without. */
export function enhanceRequestFor(description: string, audioEnabled: boolean) {
  return { userPrompt: description, style: 'cinematic', duration: 'medium', mood: audioEnabled ? 'energetic' : 'calm' };
}

/** A description as Generate sends it: the text and the AI results whose text it is. */
export interface DescriptionToSend {
  text: string;
  aiResultIds: AiResultIds;
}

/**
 * AI Enhance (docs/product-rules.md, AI assist): on with text enhances; off clears the result; a result belongs to
 * the description it was made from, so editing the description clears it. The description's own
 * AI results (`descriptionAiResults`: the suggestion or an earlier enhanced prompt put into it)
 * carry over: an enhanced prompt made from an image analysis's suggestion uses both.
 */
export function usePromptEnhancement(description: string, audioEnabled: boolean, descriptionAiResults: AiResultIds) {
  const [enabled, setEnabled] = useState(false);
  const [result, setResult] = useState<(PromptEnhancement & { source: string; aiResultIds: AiResultIds }) | null>(null);
  const enhance = useEnhancePrompt();
  const current = result && result.source === description ? result : null;

  const run = () => {
    if (!description.trim()) {
      toast({ title: 'Enhancement Failed', description: ENHANCE_PROMPT_REQUIRED_MESSAGE, variant: 'destructive' });
      return;
    }
    const source = description;
    const fromSuggestion = descriptionAiResults.imageAnalysis;
    enhance.mutate(enhanceRequestFor(source, audioEnabled), {
      onSuccess: ({ data, resultId }) => {
        const aiResultIds: AiResultIds = {
          ...(resultId ? { promptEnhancement: resultId } : {}),
          ...(fromSuggestion ? { imageAnalysis: fromSuggestion } : {}),
        };
        setResult({ ...data, source, aiResultIds });
        toast({ title: 'Prompt Enhanced', description: `Improved with ${data.improvements.length} enhancements` });
      },
      onError: (error) => {
        toast({
          title: 'Enhancement Failed',
          description: getServerMessage(error) ?? error.message,
          variant: 'destructive',
        });
      },
    });
  };

  return {
    enabled,
    result: current,
    pending: enhance.isPending,
    toggle: (on: boolean) => {
      setEnabled(on);
      if (!on) setResult(null);
      else if (description.trim()) run();
    },
    enhance: run,
    /** 'Use Enhanced': the caller copies the text (with its results) into the description; enhancement turns off. */
    consume: (): DescriptionToSend | null => {
      if (!current) return null;
      setEnabled(false);
      setResult(null);
      return { text: current.enhancedPrompt, aiResultIds: current.aiResultIds };
    },
    /** What Generate sends: the enhanced prompt while enhancement is on and one exists, else the description. */
    toSend: (): DescriptionToSend =>
      enabled && current
        ? { text: current.enhancedPrompt, aiResultIds: current.aiResultIds }
        : { text: description, aiResultIds: descriptionAiResults },
  };
}
