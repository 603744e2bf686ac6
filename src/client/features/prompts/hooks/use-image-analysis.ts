import { useRef, useState } from 'react';

import type { ImageAnalysis } from '../../../../shared/ai';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useAnalyzeImage } from '../api/analyze-image';

/** Analyses each newly uploaded image (the previous analysis is cleared first; docs/product-rules.md, AI assist). */
export function useImageAnalysis() {
  const [analysis, setAnalysis] = useState<ImageAnalysis | null>(null);
  // The server's id of the suggested prompt: the description names it while it holds the suggestion.
  const [resultId, setResultId] = useState<string | null>(null);
  const latest = useRef<string | null>(null);
  const analyze = useAnalyzeImage();
  return {
    analysis,
    resultId,
    pending: analyze.isPending,
    start: (imageUrl: string) => {
      latest.current = imageUrl;
      setAnalysis(null);
      setResultId(null);
      analyze.mutate(
        { imageUrl, analysisType: 'comprehensive', generatePrompt: true },
        {
          onSuccess: (answer) => {
            // An answer for an image replaced meanwhile is dropped.
            if (latest.current !== imageUrl) return;
            setAnalysis(answer.data);
            setResultId(answer.resultId ?? null);
            toast({ title: 'Image Analyzed', description: 'AI analysis complete with scene description' });
          },
          onError: (error) => {
            if (latest.current !== imageUrl) return;
            toast({
              title: 'Analysis Failed',
              description: getServerMessage(error) ?? error.message,
              variant: 'destructive',
            });
          },
        },
      );
    },
    clear: () => {
      latest.current = null;
      setAnalysis(null);
      setResultId(null);
    },
  };
}
