import { Check, Sparkles, Wand2 } from 'lucide-react';

import type { AiResultIds } from '../../../../shared/generations';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import { PRICES } from '../../../../shared/money/price-list';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { assistIsLocal } from '../../../lib/installation';
import type { usePromptEnhancement } from '../hooks/use-prompt-enhancement';

/** AI Enhance's share of a video's price, said beside the switch before anyone turns it on. */
const ENHANCE_SHARE = formatCreditCount(toCredits(PRICES.promptEnhancement));

interface AiEnhancePanelProps {
  enhancement: ReturnType<typeof usePromptEnhancement>;
  /** 'Use Enhanced': the enhanced prompt goes into the description, with the results it names. */
  onUseEnhanced: (text: string, aiResultIds: AiResultIds) => void;
}

/** The 'AI Enhance' switch and, while it is on, the enhanced prompt with its improvements. */
export function AiEnhancePanel({ enhancement, onUseEnhanced }: AiEnhancePanelProps) {
  const { enabled, result, pending } = enhancement;
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-3 rounded-lg border border-border p-3">
        <Label htmlFor="ai-enhance" className="grid gap-0.5">
          <span className="flex items-center gap-1.5">
            <Sparkles aria-hidden="true" className="size-4 text-violet-600 dark:text-violet-400" /> AI Enhance
          </span>
          <span className="text-xs font-normal text-muted-foreground">
            {assistIsLocal()
              ? 'On this server, writing rules (not an AI model) add camera, lighting and pacing details to your description.'
              : 'Adds camera, lighting and pacing details to your description.'}{' '}
            A video made with it costs <span className="font-semibold text-foreground">+{ENHANCE_SHARE}</span>.
          </span>
        </Label>
        <Switch id="ai-enhance" checked={enabled} onCheckedChange={enhancement.toggle} aria-label="AI Enhance" />
      </div>
      {enabled ? (
        <section
          aria-label="Enhanced prompt"
          className="grid gap-3 rounded-lg border border-violet-500/30 bg-violet-500/5 p-4"
        >
          {pending ? <Spinner label="Enhancing your prompt" /> : null}
          {result ? (
            <>
              <div className="flex items-center justify-between gap-3">
                <h3 className="text-sm font-semibold">Enhanced prompt</h3>
                <span className="rounded-full bg-violet-500/15 px-2 py-0.5 text-xs font-semibold text-violet-700 dark:text-violet-300">
                  {Math.round(result.confidence)}% confidence
                </span>
              </div>
              {/* A bare percentage read as a score; one line says what it measures (docs/product-rules.md, AI assist). */}
              <p className="-mt-2 text-xs text-muted-foreground">
                Confidence: how closely the video should follow this prompt, lower the more AI Enhance added.
              </p>
              <p className="text-sm leading-relaxed break-words">{result.enhancedPrompt}</p>
              {result.improvements.length > 0 ? (
                <ul aria-label="Improvements" className="grid gap-1 text-xs text-muted-foreground">
                  {result.improvements.map((improvement) => (
                    <li key={improvement} className="flex items-start gap-1.5">
                      <Check
                        aria-hidden="true"
                        className="mt-0.5 size-3.5 shrink-0 text-emerald-600 dark:text-emerald-400"
                      />
                      {improvement}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : pending ? null : (
            <p className="text-sm text-muted-foreground">Write a description, then enhance it.</p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" onClick={enhancement.enhance} disabled={pending}>
              <Wand2 aria-hidden="true" /> Enhance First
            </Button>
            <Button
              type="button"
              variant="brand"
              size="sm"
              disabled={!result || pending}
              onClick={() => {
                const used = enhancement.consume();
                if (used) onUseEnhanced(used.text, used.aiResultIds);
              }}
            >
              <Check aria-hidden="true" /> Use Enhanced
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
