import { Lightbulb, ScanEye, Sun, Tag, Wand2 } from 'lucide-react';

import { MAX_SHOWN_OBJECTS } from '../../../../shared/ai';
import type { AiResultIds } from '../../../../shared/generations';
import { formatCreditCount, toCredits } from '../../../../shared/money/credits';
import { PRICES } from '../../../../shared/money/price-list';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import type { useImageAnalysis } from '../hooks/use-image-analysis';
import { assistIsLocal } from '../../../lib/installation';

/** The image analysis's share of a video's price, said beside Use This. */
const ANALYSIS_SHARE = formatCreditCount(toCredits(PRICES.imageAnalysis));

interface ImageAnalysisCardProps {
  state: ReturnType<typeof useImageAnalysis>;
  /** 'Use This': the suggestion goes into the description, naming its result (a generation using it pays for the analysis). */
  onUseSuggestion: (prompt: string, aiResultIds: AiResultIds) => void;
}

/** AI assist (docs/product-rules.md): scene, up to 6 objects with confidence, lighting, mood, and a suggested prompt. */
export function ImageAnalysisCard({ state, onUseSuggestion }: ImageAnalysisCardProps) {
  const { analysis, pending } = state;
  if (!analysis && !pending) return null;
  return (
    <Card role="region" aria-label="AI Image Analysis">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ScanEye aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> AI Image Analysis
        </CardTitle>
        <CardDescription>
          {assistIsLocal()
            ? 'Measured on this server (colours, light and the objects a small detector finds), not by an AI model, with a prompt to start from.'
            : 'What we see in your image, and a prompt to start from.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {pending ? <Spinner label="Analysing your image" /> : null}
        {analysis ? (
          <>
            <p className="text-sm leading-relaxed">{analysis.sceneDescription}</p>
            <div className="grid gap-2">
              <h3 className="flex items-center gap-1.5 text-sm font-semibold">
                <Tag aria-hidden="true" className="size-4" /> Detected objects
              </h3>
              {analysis.objects.length > 0 ? (
                <ul aria-label="Detected objects" className="flex flex-wrap gap-2">
                  {analysis.objects.slice(0, MAX_SHOWN_OBJECTS).map((object) => (
                    <li key={object.name}>
                      <Badge tone="brand">
                        {object.name} · {Math.round(object.confidence)}%
                      </Badge>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted-foreground">
                  {analysis.detectorNote ?? 'No objects were recognised in this image.'}
                </p>
              )}
            </div>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div className="rounded-lg bg-muted/60 p-3">
                <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <Sun aria-hidden="true" className="size-3.5" /> Lighting
                </dt>
                <dd className="mt-1 font-medium capitalize">{analysis.lighting.type}</dd>
              </div>
              <div className="rounded-lg bg-muted/60 p-3">
                <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                  <Lightbulb aria-hidden="true" className="size-3.5" /> Mood
                </dt>
                <dd className="mt-1 font-medium capitalize">{analysis.style.mood}</dd>
              </div>
            </dl>
            <div className="grid gap-2 rounded-lg border border-violet-500/30 bg-violet-500/5 p-3">
              <h3 className="text-sm font-semibold">Suggested prompt</h3>
              <p className="text-sm break-words">{analysis.suggestedPrompt}</p>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  onClick={() =>
                    onUseSuggestion(analysis.suggestedPrompt, state.resultId ? { imageAnalysis: state.resultId } : {})
                  }
                >
                  <Wand2 aria-hidden="true" /> Use This
                </Button>
                <span className="text-xs text-muted-foreground">
                  A video made from it costs <span className="font-semibold text-foreground">+{ANALYSIS_SHARE}</span>.
                </span>
              </div>
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
