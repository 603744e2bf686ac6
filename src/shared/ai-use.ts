/**
 * Decision 012: which AI results a generation uses, as the generator works it out before sending
 * (the server checks each claim against what it produced for the user). A description uses AI
 * prompt enhancement when it is an enhanced prompt; it uses image analysis when it is the
 * analysis's suggested prompt, or an enhanced prompt made (perhaps in several steps) from it.
 */
export interface ProducedEnhancement {
  /** The description that was enhanced. */
  source: string;
  enhancedPrompt: string;
}

export interface AiUse {
  usedPromptEnhancement: boolean;
  usedImageAnalysis: boolean;
}

export function aiUseOf(
  description: string,
  produced: readonly ProducedEnhancement[],
  suggestion: string | null | undefined,
): AiUse {
  const text = description.trim();
  const hint = suggestion?.trim() ?? '';
  const fromSuggestion = (candidate: string, depth: number): boolean =>
    (hint !== '' && candidate === hint) ||
    (depth < produced.length &&
      produced.some((e) => e.enhancedPrompt.trim() === candidate && fromSuggestion(e.source.trim(), depth + 1)));
  const enhanced = text !== '' && produced.some((e) => e.enhancedPrompt.trim() === text);
  return { usedPromptEnhancement: enhanced, usedImageAnalysis: text !== '' && fromSuggestion(text, 0) };
}
