import { useState } from 'react';

import { ENHANCE_PROMPT_REQUIRED_MESSAGE, type PromptEnhancement } from '../../../../shared/ai';
import type { ProducedEnhancement } from '../../../../shared/ai-use';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useEnhancePrompt } from '../api/enhance-prompt';

/** The spec's request defaults: cinematic, medium, and energetic with audio, calm without. */
export function enhanceRequestFor(description: string, audioEnabled: boolean) {
  return { userPrompt: description, style: 'cinematic', duration: 'medium', mood: audioEnabled ? 'energetic' : 'calm' };
}

/**
 * AI Enhance (spec section 4): on with text enhances; off clears the result; a result belongs to
 * the description it was made from, so editing the description clears it.
 */
export function usePromptEnhancement(description: string, audioEnabled: boolean) {
  const [enabled, setEnabled] = useState(false);
  const [result, setResult] = useState<(PromptEnhancement & { source: string }) | null>(null);
  // Every enhanced prompt made here: a description that is one of them uses (and pays for) enhancement.
  const [produced, setProduced] = useState<ProducedEnhancement[]>([]);
  const enhance = useEnhancePrompt();
  const current = result && result.source === description ? result : null;

  const run = () => {
    if (!description.trim()) {
      toast({ title: 'Enhancement Failed', description: ENHANCE_PROMPT_REQUIRED_MESSAGE, variant: 'destructive' });
      return;
    }
    const source = description;
    enhance.mutate(enhanceRequestFor(source, audioEnabled), {
      onSuccess: (data) => {
        setResult({ ...data, source });
        setProduced((list) => [...list.slice(-19), { source, enhancedPrompt: data.enhancedPrompt }]);
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
    produced,
    pending: enhance.isPending,
    toggle: (on: boolean) => {
      setEnabled(on);
      if (!on) setResult(null);
      else if (description.trim()) run();
    },
    enhance: run,
    /** 'Use Enhanced': the caller copies the text into the description; enhancement turns off. */
    consume: (): string | null => {
      if (!current) return null;
      setEnabled(false);
      setResult(null);
      return current.enhancedPrompt;
    },
    /** What Generate sends: the enhanced prompt while enhancement is on and one exists. */
    promptToSend: (fallback: string) => (enabled && current ? current.enhancedPrompt : fallback),
  };
}
